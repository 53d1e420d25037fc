CREATE INDEX `invoices_workspace_open_idx` ON `invoices` (`workspace_id`,`status`,`currency`,`total`,`amount_paid`,`due_date`);--> statement-breakpoint
CREATE INDEX `invoices_workspace_issued_status_idx` ON `invoices` (`workspace_id`,`issue_date`,`status`);--> statement-breakpoint
CREATE INDEX `payments_workspace_revenue_idx` ON `payments` (`workspace_id`,`paid_at`,`currency`,`amount`,`invoice_id`);--> statement-breakpoint
CREATE INDEX `employees_workspace_status_department_idx` ON `employees` (`workspace_id`,`status`,`department`);--> statement-breakpoint
CREATE INDEX `deals_workspace_closed_idx` ON `deals` (`workspace_id`,`closed_at`,`status`,`currency`,`value`);--> statement-breakpoint
CREATE INDEX `deals_workspace_pipeline_idx` ON `deals` (`workspace_id`,`status`,`stage`,`currency`,`value`);--> statement-breakpoint
CREATE INDEX `leads_workspace_created_source_idx` ON `leads` (`workspace_id`,`created_at`,`source`);--> statement-breakpoint
CREATE INDEX `tasks_workspace_live_idx` ON `tasks` (`workspace_id`,`deleted_at`,`status`,`due_date`);--> statement-breakpoint
CREATE INDEX `tasks_workspace_completed_idx` ON `tasks` (`workspace_id`,`completed_at`,`deleted_at`);
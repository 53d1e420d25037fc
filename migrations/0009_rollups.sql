CREATE TABLE `invoice_balances` (
	`workspace_id` integer NOT NULL,
	`status` text NOT NULL,
	`currency` text NOT NULL,
	`invoices` integer NOT NULL,
	`due` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `status`, `currency`)
);
--> statement-breakpoint
CREATE TABLE `payment_days` (
	`workspace_id` integer NOT NULL,
	`day` integer NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	`payments` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `day`, `currency`)
);
--> statement-breakpoint
CREATE TABLE `task_counts` (
	`workspace_id` integer NOT NULL,
	`project_id` integer NOT NULL,
	`status` text NOT NULL,
	`tasks` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `project_id`, `status`)
);
--> statement-breakpoint
CREATE INDEX `invoices_workspace_status_due_idx` ON `invoices` (`workspace_id`,`status`,`due_date`);
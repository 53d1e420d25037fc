-- The two expression indexes (coalesce(due_date, …)) were corrected by hand: drizzle-kit 0.31 quotes the expression as a column name.
CREATE TABLE `customers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`phone` text,
	`billing_name` text,
	`billing_email` text,
	`billing_address_line1` text,
	`billing_address_line2` text,
	`billing_city` text,
	`billing_state` text,
	`billing_postal_code` text,
	`billing_country` text,
	`tax_id` text,
	`currency` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `customers_workspace_id_idx` ON `customers` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `customers_workspace_name_idx` ON `customers` (`workspace_id`,`name`,`id`);--> statement-breakpoint
CREATE INDEX `customers_workspace_created_idx` ON `customers` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `customers_workspace_country_idx` ON `customers` (`workspace_id`,`billing_country`,`id`);--> statement-breakpoint
CREATE INDEX `customers_workspace_currency_idx` ON `customers` (`workspace_id`,`currency`,`id`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`number` text NOT NULL,
	`currency` text NOT NULL,
	`issue_date` text NOT NULL,
	`due_date` text,
	`items` text NOT NULL,
	`notes` text,
	`status` text DEFAULT 'draft' NOT NULL,
	`subtotal` integer NOT NULL,
	`tax_total` integer NOT NULL,
	`total` integer NOT NULL,
	`amount_paid` integer DEFAULT 0 NOT NULL,
	`sent_at` integer,
	`sent_to` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_workspace_number_unique` ON `invoices` (`workspace_id`,`number`);--> statement-breakpoint
CREATE INDEX `invoices_workspace_id_idx` ON `invoices` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_workspace_customer_idx` ON `invoices` (`workspace_id`,`customer_id`,`status`);--> statement-breakpoint
CREATE INDEX `invoices_workspace_status_idx` ON `invoices` (`workspace_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_workspace_issue_idx` ON `invoices` (`workspace_id`,`issue_date`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_workspace_due_idx` ON `invoices` (`workspace_id`, coalesce(`due_date`, '9999-12-31'), `id`);--> statement-breakpoint
CREATE INDEX `invoices_workspace_total_idx` ON `invoices` (`workspace_id`,`total`,`id`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`method` text NOT NULL,
	`processor` text,
	`processor_payment_id` text,
	`paid_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_workspace_processor_unique` ON `payments` (`workspace_id`,`processor`,`processor_payment_id`);--> statement-breakpoint
CREATE INDEX `payments_workspace_id_idx` ON `payments` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `payments_workspace_invoice_idx` ON `payments` (`workspace_id`,`invoice_id`,`id`);--> statement-breakpoint
CREATE INDEX `payments_workspace_paid_idx` ON `payments` (`workspace_id`,`paid_at`,`id`);--> statement-breakpoint
CREATE TABLE `employees` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`department` text,
	`designation` text,
	`branch` text,
	`status` text DEFAULT 'active' NOT NULL,
	`date_of_joining` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `employees_workspace_email_unique` ON `employees` (`workspace_id`,`email`);--> statement-breakpoint
CREATE INDEX `employees_workspace_id_idx` ON `employees` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `employees_workspace_name_idx` ON `employees` (`workspace_id`,`name`,`id`);--> statement-breakpoint
CREATE INDEX `employees_workspace_joined_idx` ON `employees` (`workspace_id`,`date_of_joining`,`id`);--> statement-breakpoint
CREATE INDEX `employees_workspace_department_idx` ON `employees` (`workspace_id`,`department`,`id`);--> statement-breakpoint
CREATE INDEX `employees_workspace_designation_idx` ON `employees` (`workspace_id`,`designation`,`id`);--> statement-breakpoint
CREATE INDEX `employees_workspace_branch_idx` ON `employees` (`workspace_id`,`branch`,`id`);--> statement-breakpoint
CREATE INDEX `employees_workspace_status_idx` ON `employees` (`workspace_id`,`status`,`id`);--> statement-breakpoint
CREATE TABLE `deals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text NOT NULL,
	`value` integer DEFAULT 0 NOT NULL,
	`currency` text NOT NULL,
	`stage` text DEFAULT 'initial_contact' NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`contact_id` integer,
	`customer_id` integer,
	`expected_close_date` text,
	`lost_reason` text,
	`closed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `deals_workspace_id_idx` ON `deals` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `deals_workspace_value_idx` ON `deals` (`workspace_id`,`value`,`id`);--> statement-breakpoint
CREATE INDEX `deals_workspace_created_idx` ON `deals` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `deals_workspace_stage_idx` ON `deals` (`workspace_id`,`stage`,`id`);--> statement-breakpoint
CREATE INDEX `deals_workspace_status_idx` ON `deals` (`workspace_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `deals_contact_idx` ON `deals` (`contact_id`);--> statement-breakpoint
CREATE INDEX `deals_customer_idx` ON `deals` (`customer_id`);--> statement-breakpoint
CREATE TABLE `leads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`company` text,
	`source` text,
	`status` text DEFAULT 'new' NOT NULL,
	`value` integer,
	`currency` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `leads_workspace_id_idx` ON `leads` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `leads_workspace_name_idx` ON `leads` (`workspace_id`,`name`,`id`);--> statement-breakpoint
CREATE INDEX `leads_workspace_created_idx` ON `leads` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `leads_workspace_status_idx` ON `leads` (`workspace_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `leads_workspace_source_idx` ON `leads` (`workspace_id`,`source`,`id`);--> statement-breakpoint
CREATE TABLE `projects` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`status` text DEFAULT 'active' NOT NULL,
	`customer_id` integer,
	`start_date` text,
	`end_date` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `projects_workspace_id_idx` ON `projects` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `projects_workspace_name_idx` ON `projects` (`workspace_id`,`name`,`id`);--> statement-breakpoint
CREATE INDEX `projects_workspace_created_idx` ON `projects` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `projects_workspace_status_idx` ON `projects` (`workspace_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `projects_workspace_customer_idx` ON `projects` (`workspace_id`,`customer_id`,`id`);--> statement-breakpoint
CREATE INDEX `projects_customer_idx` ON `projects` (`customer_id`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`project_id` integer NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`status` text DEFAULT 'todo' NOT NULL,
	`priority` text DEFAULT 'medium' NOT NULL,
	`assignee_id` integer,
	`due_date` text,
	`completed_at` integer,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`assignee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `tasks_workspace_id_idx` ON `tasks` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `tasks_workspace_created_idx` ON `tasks` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tasks_workspace_due_idx` ON `tasks` (`workspace_id`, coalesce(`due_date`, '9999-12-31'), `id`);--> statement-breakpoint
CREATE INDEX `tasks_workspace_project_idx` ON `tasks` (`workspace_id`,`project_id`,`deleted_at`,`status`);--> statement-breakpoint
CREATE INDEX `tasks_workspace_status_idx` ON `tasks` (`workspace_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `tasks_workspace_priority_idx` ON `tasks` (`workspace_id`,`priority`,`id`);--> statement-breakpoint
CREATE INDEX `tasks_workspace_assignee_idx` ON `tasks` (`workspace_id`,`assignee_id`,`id`);--> statement-breakpoint
CREATE INDEX `tasks_assignee_idx` ON `tasks` (`assignee_id`);--> statement-breakpoint
ALTER TABLE `workspaces` ADD `disabled_packages` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `invoice_counter` integer DEFAULT 0 NOT NULL;
CREATE TABLE `expenses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`vendor_id` integer,
	`category` text NOT NULL,
	`description` text,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`date` text NOT NULL,
	`project_id` integer,
	`billable` integer DEFAULT false NOT NULL,
	`employee_id` integer,
	`status` text DEFAULT 'submitted' NOT NULL,
	`receipt_key` text,
	`receipt_content_type` text,
	`receipt_size` integer,
	`receipt_name` text,
	`receipt_uploaded_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`vendor_id`) REFERENCES `vendors`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `expenses_workspace_id_idx` ON `expenses` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `expenses_workspace_updated_idx` ON `expenses` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `expenses_workspace_created_idx` ON `expenses` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `expenses_workspace_date_idx` ON `expenses` (`workspace_id`,`date`,`id`);--> statement-breakpoint
CREATE INDEX `expenses_workspace_amount_idx` ON `expenses` (`workspace_id`,`amount`,`id`);--> statement-breakpoint
CREATE INDEX `expenses_workspace_status_idx` ON `expenses` (`workspace_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `expenses_workspace_category_idx` ON `expenses` (`workspace_id`,`category`,`date`);--> statement-breakpoint
CREATE INDEX `expenses_workspace_vendor_idx` ON `expenses` (`workspace_id`,`vendor_id`,`id`);--> statement-breakpoint
CREATE INDEX `expenses_workspace_project_idx` ON `expenses` (`workspace_id`,`project_id`,`id`);--> statement-breakpoint
CREATE INDEX `expenses_workspace_employee_idx` ON `expenses` (`workspace_id`,`employee_id`,`id`);--> statement-breakpoint
CREATE INDEX `expenses_workspace_status_date_idx` ON `expenses` (`workspace_id`,`status`,`date`,`category`,`currency`,`amount`);--> statement-breakpoint
CREATE TABLE `vendors` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`phone` text,
	`tax_id` text,
	`currency` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `vendors_workspace_id_idx` ON `vendors` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `vendors_workspace_updated_idx` ON `vendors` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `vendors_workspace_name_idx` ON `vendors` (`workspace_id`,`name`,`id`);--> statement-breakpoint
CREATE INDEX `vendors_workspace_created_idx` ON `vendors` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text NOT NULL,
	`sku` text,
	`kind` text DEFAULT 'service' NOT NULL,
	`unit_amount` integer NOT NULL,
	`currency` text NOT NULL,
	`tax_rate` real DEFAULT 0 NOT NULL,
	`unit` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `products_workspace_sku_unique` ON `products` (`workspace_id`,`sku`);--> statement-breakpoint
CREATE INDEX `products_workspace_id_idx` ON `products` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `products_workspace_updated_idx` ON `products` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `products_workspace_name_idx` ON `products` (`workspace_id`,`name`,`id`);--> statement-breakpoint
CREATE INDEX `products_workspace_created_idx` ON `products` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `products_workspace_amount_idx` ON `products` (`workspace_id`,`unit_amount`,`id`);--> statement-breakpoint
CREATE INDEX `products_workspace_kind_idx` ON `products` (`workspace_id`,`kind`,`active`,`id`);--> statement-breakpoint
CREATE INDEX `products_workspace_active_idx` ON `products` (`workspace_id`,`active`,`id`);--> statement-breakpoint
CREATE TABLE `quote_counters` (
	`workspace_id` integer PRIMARY KEY NOT NULL,
	`last` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `quotes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`number` text NOT NULL,
	`currency` text NOT NULL,
	`issue_date` text NOT NULL,
	`valid_until` text,
	`items` text NOT NULL,
	`notes` text,
	`status` text DEFAULT 'draft' NOT NULL,
	`subtotal` integer NOT NULL,
	`tax_total` integer NOT NULL,
	`total` integer NOT NULL,
	`sent_at` integer,
	`sent_to` text,
	`public_token` text,
	`public_url` text,
	`viewed_at` integer,
	`decided_at` integer,
	`invoice_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quotes_workspace_number_unique` ON `quotes` (`workspace_id`,`number`);--> statement-breakpoint
CREATE INDEX `quotes_workspace_id_idx` ON `quotes` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `quotes_workspace_updated_idx` ON `quotes` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `quotes_workspace_created_idx` ON `quotes` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `quotes_workspace_customer_idx` ON `quotes` (`workspace_id`,`customer_id`,`id`);--> statement-breakpoint
CREATE INDEX `quotes_workspace_status_idx` ON `quotes` (`workspace_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `quotes_workspace_issue_idx` ON `quotes` (`workspace_id`,`issue_date`,`id`);--> statement-breakpoint
CREATE INDEX `quotes_workspace_total_idx` ON `quotes` (`workspace_id`,`total`,`id`);--> statement-breakpoint
CREATE INDEX `quotes_expiry_idx` ON `quotes` (`status`,`valid_until`);
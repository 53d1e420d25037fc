CREATE TABLE `attendance` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`employee_id` integer NOT NULL,
	`date` text NOT NULL,
	`clock_in` text NOT NULL,
	`clock_out` text,
	`note` text,
	`worked_minutes` integer,
	`late_minutes` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attendance_workspace_employee_open_unique` ON `attendance` (`workspace_id`,`employee_id`) WHERE clock_out IS NULL;--> statement-breakpoint
CREATE INDEX `attendance_workspace_id_idx` ON `attendance` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `attendance_workspace_updated_idx` ON `attendance` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `attendance_workspace_created_idx` ON `attendance` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `attendance_workspace_employee_date_idx` ON `attendance` (`workspace_id`,`employee_id`,`date`);--> statement-breakpoint
CREATE INDEX `attendance_workspace_date_idx` ON `attendance` (`workspace_id`,`date`,`id`);--> statement-breakpoint
CREATE TABLE `attendance_settings` (
	`workspace_id` integer PRIMARY KEY NOT NULL,
	`workday_start` text DEFAULT '09:00' NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `holidays` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`date` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `holidays_workspace_date_unique` ON `holidays` (`workspace_id`,`date`);--> statement-breakpoint
CREATE INDEX `holidays_workspace_id_idx` ON `holidays` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `holidays_workspace_updated_idx` ON `holidays` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `holidays_workspace_created_idx` ON `holidays` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `leave_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`employee_id` integer NOT NULL,
	`leave_type_id` integer NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`half_day` integer DEFAULT false NOT NULL,
	`reason` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`days` real NOT NULL,
	`decided_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`leave_type_id`) REFERENCES `leave_types`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `leave_requests_workspace_id_idx` ON `leave_requests` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `leave_requests_workspace_updated_idx` ON `leave_requests` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `leave_requests_workspace_created_idx` ON `leave_requests` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `leave_requests_workspace_employee_idx` ON `leave_requests` (`workspace_id`,`employee_id`,`start_date`);--> statement-breakpoint
CREATE INDEX `leave_requests_workspace_type_idx` ON `leave_requests` (`workspace_id`,`leave_type_id`,`id`);--> statement-breakpoint
CREATE INDEX `leave_requests_workspace_status_idx` ON `leave_requests` (`workspace_id`,`status`,`start_date`);--> statement-breakpoint
CREATE INDEX `leave_requests_workspace_start_idx` ON `leave_requests` (`workspace_id`,`start_date`,`id`);--> statement-breakpoint
CREATE TABLE `leave_types` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`name` text NOT NULL,
	`days_per_year` real NOT NULL,
	`paid` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `leave_types_workspace_id_idx` ON `leave_types` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `leave_types_workspace_updated_idx` ON `leave_types` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `leave_types_workspace_name_idx` ON `leave_types` (`workspace_id`,`name`,`id`);--> statement-breakpoint
CREATE INDEX `leave_types_workspace_created_idx` ON `leave_types` (`workspace_id`,`created_at`,`id`);
CREATE TABLE `candidates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`job_opening_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`stage` text DEFAULT 'applied' NOT NULL,
	`notes` text,
	`hired_at` integer,
	`employee_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`job_opening_id`) REFERENCES `job_openings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `candidates_workspace_opening_email_unique` ON `candidates` (`workspace_id`,`job_opening_id`,`email`);--> statement-breakpoint
CREATE INDEX `candidates_workspace_id_idx` ON `candidates` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `candidates_workspace_updated_idx` ON `candidates` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `candidates_workspace_name_idx` ON `candidates` (`workspace_id`,`name`,`id`);--> statement-breakpoint
CREATE INDEX `candidates_workspace_created_idx` ON `candidates` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `candidates_workspace_opening_idx` ON `candidates` (`workspace_id`,`job_opening_id`,`stage`);--> statement-breakpoint
CREATE INDEX `candidates_workspace_stage_idx` ON `candidates` (`workspace_id`,`stage`,`id`);--> statement-breakpoint
CREATE INDEX `candidates_employee_idx` ON `candidates` (`employee_id`);--> statement-breakpoint
CREATE TABLE `job_openings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`title` text NOT NULL,
	`department` text,
	`branch` text,
	`description` text,
	`positions` integer DEFAULT 1 NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `job_openings_workspace_id_idx` ON `job_openings` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `job_openings_workspace_updated_idx` ON `job_openings` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `job_openings_workspace_title_idx` ON `job_openings` (`workspace_id`,`title`,`id`);--> statement-breakpoint
CREATE INDEX `job_openings_workspace_created_idx` ON `job_openings` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `job_openings_workspace_status_idx` ON `job_openings` (`workspace_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `job_openings_workspace_department_idx` ON `job_openings` (`workspace_id`,`department`,`id`);--> statement-breakpoint
CREATE TABLE `time_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`employee_id` integer NOT NULL,
	`task_id` integer NOT NULL,
	`project_id` integer NOT NULL,
	`date` text NOT NULL,
	`minutes` integer NOT NULL,
	`billable` integer DEFAULT true NOT NULL,
	`note` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `time_entries_workspace_id_idx` ON `time_entries` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `time_entries_workspace_updated_idx` ON `time_entries` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `time_entries_workspace_date_idx` ON `time_entries` (`workspace_id`,`date`,`id`);--> statement-breakpoint
CREATE INDEX `time_entries_workspace_employee_day_idx` ON `time_entries` (`workspace_id`,`employee_id`,`date`,`minutes`);--> statement-breakpoint
CREATE INDEX `time_entries_workspace_task_idx` ON `time_entries` (`workspace_id`,`task_id`,`id`);--> statement-breakpoint
CREATE INDEX `time_entries_workspace_project_idx` ON `time_entries` (`workspace_id`,`project_id`,`task_id`,`minutes`);
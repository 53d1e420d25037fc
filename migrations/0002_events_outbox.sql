CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` integer NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`previous_attributes` text,
	`created_at` integer NOT NULL,
	`enqueued_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `events_workspace_created_idx` ON `events` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `events_pending_idx` ON `events` (`enqueued_at`,`created_at`);
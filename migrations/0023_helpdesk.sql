CREATE TABLE `ticket_counters` (
	`workspace_id` integer PRIMARY KEY NOT NULL,
	`last` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ticket_replies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`ticket_id` integer NOT NULL,
	`body` text NOT NULL,
	`internal` integer DEFAULT false NOT NULL,
	`author` text NOT NULL,
	`author_user_id` integer,
	`from_email` text,
	`message_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ticket_replies_workspace_id_idx` ON `ticket_replies` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `ticket_replies_workspace_updated_idx` ON `ticket_replies` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `ticket_replies_workspace_created_idx` ON `ticket_replies` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `ticket_replies_workspace_ticket_idx` ON `ticket_replies` (`workspace_id`,`ticket_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `ticket_replies_workspace_message_unique` ON `ticket_replies` (`workspace_id`,`message_id`);--> statement-breakpoint
CREATE TABLE `tickets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`number` text NOT NULL,
	`subject` text NOT NULL,
	`body` text,
	`contact_id` integer,
	`email` text NOT NULL,
	`priority` text DEFAULT 'medium' NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`assignee_user_id` integer,
	`source` text DEFAULT 'api' NOT NULL,
	`first_response_due_at` integer NOT NULL,
	`first_responded_at` integer,
	`resolved_at` integer,
	`message_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_workspace_number_unique` ON `tickets` (`workspace_id`,`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_workspace_message_unique` ON `tickets` (`workspace_id`,`message_id`);--> statement-breakpoint
CREATE INDEX `tickets_workspace_id_idx` ON `tickets` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_workspace_updated_idx` ON `tickets` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_workspace_created_idx` ON `tickets` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_workspace_status_idx` ON `tickets` (`workspace_id`,`status`,`priority`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_workspace_priority_idx` ON `tickets` (`workspace_id`,`priority`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_workspace_assignee_idx` ON `tickets` (`workspace_id`,`assignee_user_id`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_workspace_contact_idx` ON `tickets` (`workspace_id`,`contact_id`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_workspace_sla_idx` ON `tickets` (`workspace_id`,`first_responded_at`,`first_response_due_at`);
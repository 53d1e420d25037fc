CREATE TABLE `public_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`workspace_id` integer NOT NULL,
	`kind` text NOT NULL,
	`subject_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `public_links_workspace_idx` ON `public_links` (`workspace_id`,`kind`,`subject_id`);--> statement-breakpoint
CREATE TABLE `mail_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`message_id` integer NOT NULL,
	`attempt` integer NOT NULL,
	`outcome` text NOT NULL,
	`error` text,
	`at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`message_id`) REFERENCES `mail_messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mail_attempts_workspace_message_idx` ON `mail_attempts` (`workspace_id`,`message_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `mail_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`kind` text NOT NULL,
	`subject_id` integer NOT NULL,
	`to` text NOT NULL,
	`reply_to` text,
	`from_name` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`next_attempt_at` integer NOT NULL,
	`lease_until` integer,
	`sent_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `mail_messages_workspace_subject_idx` ON `mail_messages` (`workspace_id`,`kind`,`subject_id`,`id`);--> statement-breakpoint
CREATE INDEX `mail_messages_due_idx` ON `mail_messages` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `invoicing_settings` (
	`workspace_id` integer PRIMARY KEY NOT NULL,
	`currency` text NOT NULL,
	`invoice_reminders` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `payment_processors` (
	`workspace_id` integer PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`secret_key` text NOT NULL,
	`webhook_secret` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `invoices` ADD `public_token` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `public_url` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `viewed_at` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `reminders_sent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `invoices_reminders_idx` ON `invoices` (`status`,`due_date`,`reminders_sent`);
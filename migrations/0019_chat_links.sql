-- Hand-edited after drizzle-kit: the old table has no allowed_chats (an empty allow-list), and every integration's
-- fallback identity is switched off (it answered any unlinked chat user as that user): accounts link with /link.
CREATE TABLE `chat_link_codes` (
	`code_hash` text PRIMARY KEY NOT NULL,
	`workspace_id` integer NOT NULL,
	`provider` text NOT NULL,
	`chat_user_id` text NOT NULL,
	`chat_user_name` text,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `chat_link_codes_expires_idx` ON `chat_link_codes` (`expires_at`);--> statement-breakpoint
CREATE TABLE `chat_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`provider` text NOT NULL,
	`chat_user_id` text NOT NULL,
	`chat_user_name` text,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chat_links_account_unique` ON `chat_links` (`workspace_id`,`provider`,`chat_user_id`);--> statement-breakpoint
CREATE INDEX `chat_links_user_idx` ON `chat_links` (`workspace_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `chat_replays` (
	`workspace_id` integer NOT NULL,
	`provider` text NOT NULL,
	`key` text NOT NULL,
	`seen_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `provider`, `key`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `chat_replays_seen_idx` ON `chat_replays` (`seen_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_chatbot_integrations` (
	`workspace_id` integer NOT NULL,
	`provider` text NOT NULL,
	`enabled` integer NOT NULL,
	`secret` text NOT NULL,
	`acts_as_user_id` integer,
	`allowed_chats` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `provider`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`acts_as_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_chatbot_integrations`("workspace_id", "provider", "enabled", "secret", "acts_as_user_id", "allowed_chats", "created_at", "updated_at") SELECT "workspace_id", "provider", "enabled", "secret", NULL, '[]', "created_at", "updated_at" FROM `chatbot_integrations`;--> statement-breakpoint
DROP TABLE `chatbot_integrations`;--> statement-breakpoint
ALTER TABLE `__new_chatbot_integrations` RENAME TO `chatbot_integrations`;--> statement-breakpoint
PRAGMA foreign_keys=ON;
CREATE TABLE `chatbot_integrations` (
	`workspace_id` integer NOT NULL,
	`provider` text NOT NULL,
	`enabled` integer NOT NULL,
	`secret` text NOT NULL,
	`acts_as_user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `provider`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`acts_as_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);

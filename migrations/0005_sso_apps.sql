CREATE TABLE `sso_apps` (
	`workspace_id` integer NOT NULL,
	`app` text NOT NULL,
	`app_url` text,
	`enabled` integer DEFAULT false NOT NULL,
	`secret` text,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `app`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);

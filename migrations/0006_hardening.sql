CREATE TABLE `write_guards` (
	`reason` text NOT NULL,
	CONSTRAINT "write_guard_failed" CHECK(reason IS NULL)
);
--> statement-breakpoint
-- Idempotency keys are now scoped by credential as well. They live 24 h, so the old ones are dropped
-- rather than guessed at (a retry within the upgrade window simply runs once more).
DROP TABLE `idempotency_keys`;--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`workspace_id` integer NOT NULL,
	`credential` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`locked_until` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `credential`, `key`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE INDEX `customers_workspace_updated_idx` ON `customers` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_workspace_updated_idx` ON `invoices` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `payments_workspace_updated_idx` ON `payments` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `employees_workspace_updated_idx` ON `employees` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `contacts_workspace_updated_idx` ON `contacts` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `deals_workspace_updated_idx` ON `deals` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `leads_workspace_updated_idx` ON `leads` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `projects_workspace_updated_idx` ON `projects` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `tasks_workspace_updated_idx` ON `tasks` (`workspace_id`,`updated_at`,`id`);
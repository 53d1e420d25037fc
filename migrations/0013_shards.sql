CREATE TABLE `invoice_counters` (
	`workspace_id` integer PRIMARY KEY NOT NULL,
	`last` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `workspaces` ADD `shard` text DEFAULT 'DB' NOT NULL;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `moving_since` integer;--> statement-breakpoint
-- Invoice numbers continue where each workspace's counter stood.
INSERT INTO `invoice_counters` (`workspace_id`, `last`) SELECT `id`, `invoice_counter` FROM `workspaces` WHERE `invoice_counter` > 0;

CREATE TABLE `analytics_goals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`site_id` integer NOT NULL,
	`type` text NOT NULL,
	`value` text NOT NULL,
	`revenue` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `analytics_goals_site_value_idx` ON `analytics_goals` (`workspace_id`,`site_id`,`type`,`value`);--> statement-breakpoint
CREATE TABLE `analytics_shared_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`site_id` integer NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`password_hash` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `analytics_shared_links_token_hash_unique` ON `analytics_shared_links` (`token_hash`);--> statement-breakpoint
CREATE INDEX `analytics_shared_links_site_idx` ON `analytics_shared_links` (`workspace_id`,`site_id`,`id`);--> statement-breakpoint
DROP INDEX `analytics_events_site_visitor_idx`;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `ord` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `kind` text DEFAULT 'browser' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `browser` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `browser_version` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `os` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `os_version` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `region` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `city` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `source` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `channel` text DEFAULT 'Direct' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `utm_source` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `utm_medium` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `utm_campaign` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `utm_term` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `utm_content` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `analytics_events_site_visitor_ord_idx` ON `analytics_events` (`workspace_id`,`site_id`,`visitor`,`name`,`ord`);--> statement-breakpoint
ALTER TABLE `analytics_visits` ADD `kind` text DEFAULT 'browser' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_visits` ADD `entry_page` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_visits` ADD `exit_page` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_visits` ADD `entry_ord` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_visits` ADD `exit_ord` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_visits` ADD `source` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_visits` ADD `channel` text DEFAULT 'Direct' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_visits` ADD `utm_source` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_visits` ADD `utm_medium` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_visits` ADD `utm_campaign` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_visits` ADD `utm_term` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_visits` ADD `utm_content` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `analytics_visits_site_started_idx` ON `analytics_visits` (`workspace_id`,`site_id`,`started_at`);--> statement-breakpoint
-- Events written before seq existed keep their arrival order.
UPDATE `analytics_events` SET `ord` = `ts` * 1024;--> statement-breakpoint
UPDATE `analytics_events` SET `kind` = 'server' WHERE EXISTS (SELECT 1 FROM `analytics_visitor_days` d WHERE d.`workspace_id` = `analytics_events`.`workspace_id` AND d.`site_id` = `analytics_events`.`site_id` AND d.`visitor` = `analytics_events`.`visitor` AND d.`source` = 'server');--> statement-breakpoint
UPDATE `analytics_visits` SET `kind` = 'server' WHERE EXISTS (SELECT 1 FROM `analytics_visitor_days` d WHERE d.`workspace_id` = `analytics_visits`.`workspace_id` AND d.`site_id` = `analytics_visits`.`site_id` AND d.`visitor` = `analytics_visits`.`visitor` AND d.`source` = 'server');

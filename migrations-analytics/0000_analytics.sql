CREATE TABLE `analytics_daily` (
	`workspace_id` integer NOT NULL,
	`site_id` integer NOT NULL,
	`day` text NOT NULL,
	`browser_visitors` integer DEFAULT 0 NOT NULL,
	`visitors` integer DEFAULT 0 NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	`pageviews` integer DEFAULT 0 NOT NULL,
	`events` integer DEFAULT 0 NOT NULL,
	`bounces` integer DEFAULT 0 NOT NULL,
	`duration_ms` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`workspace_id`, `site_id`, `day`)
);
--> statement-breakpoint
CREATE TABLE `analytics_daily_revenue` (
	`workspace_id` integer NOT NULL,
	`site_id` integer NOT NULL,
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `site_id`, `day`, `currency`)
);
--> statement-breakpoint
CREATE TABLE `analytics_dead_letters` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`body` text NOT NULL,
	`reason` text NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `analytics_deleted_sites` (
	`site_id` integer PRIMARY KEY NOT NULL,
	`workspace_id` integer NOT NULL,
	`deleted_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `analytics_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_key` text NOT NULL,
	`workspace_id` integer NOT NULL,
	`site_id` integer NOT NULL,
	`visitor` text NOT NULL,
	`visit_id` text NOT NULL,
	`name` text NOT NULL,
	`path` text NOT NULL,
	`referrer` text NOT NULL,
	`country` text NOT NULL,
	`device` text NOT NULL,
	`props` text,
	`revenue_amount` integer,
	`revenue_currency` text,
	`ts` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `analytics_events_event_key_unique` ON `analytics_events` (`event_key`);--> statement-breakpoint
CREATE INDEX `analytics_events_site_ts_idx` ON `analytics_events` (`workspace_id`,`site_id`,`ts`);--> statement-breakpoint
CREATE INDEX `analytics_events_site_name_ts_idx` ON `analytics_events` (`workspace_id`,`site_id`,`name`,`ts`);--> statement-breakpoint
CREATE INDEX `analytics_events_site_visitor_idx` ON `analytics_events` (`workspace_id`,`site_id`,`visitor`,`name`,`ts`);--> statement-breakpoint
CREATE TABLE `analytics_funnels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`site_id` integer NOT NULL,
	`name` text NOT NULL,
	`steps` text NOT NULL,
	`window_minutes` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `analytics_funnels_site_idx` ON `analytics_funnels` (`workspace_id`,`site_id`,`id`);--> statement-breakpoint
CREATE TABLE `analytics_salts` (
	`day` text PRIMARY KEY NOT NULL,
	`salt` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `analytics_sites` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`domain` text NOT NULL,
	`site_key` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `analytics_sites_site_key_unique` ON `analytics_sites` (`site_key`);--> statement-breakpoint
CREATE INDEX `analytics_sites_workspace_idx` ON `analytics_sites` (`workspace_id`,`id`);--> statement-breakpoint
CREATE TABLE `analytics_visitor_days` (
	`workspace_id` integer NOT NULL,
	`site_id` integer NOT NULL,
	`day` text NOT NULL,
	`visitor` text NOT NULL,
	`source` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `site_id`, `day`, `visitor`)
);
--> statement-breakpoint
CREATE INDEX `analytics_visitor_days_source_idx` ON `analytics_visitor_days` (`workspace_id`,`site_id`,`source`,`day`,`visitor`);--> statement-breakpoint
CREATE TABLE `analytics_visits` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` integer NOT NULL,
	`site_id` integer NOT NULL,
	`visitor` text NOT NULL,
	`day` text NOT NULL,
	`referrer` text NOT NULL,
	`started_at` integer NOT NULL,
	`last_at` integer NOT NULL,
	`pageviews` integer NOT NULL,
	`events` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `analytics_visits_visitor_idx` ON `analytics_visits` (`workspace_id`,`site_id`,`visitor`,`last_at`);
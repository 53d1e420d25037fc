CREATE TABLE `analytics_daily_properties` (
	`workspace_id` integer NOT NULL,
	`site_id` integer NOT NULL,
	`day` text NOT NULL,
	`property` text NOT NULL,
	`value` text NOT NULL,
	`visitors` integer DEFAULT 0 NOT NULL,
	`visits` integer DEFAULT 0 NOT NULL,
	`pageviews` integer DEFAULT 0 NOT NULL,
	`events` integer DEFAULT 0 NOT NULL,
	`bounces` integer DEFAULT 0 NOT NULL,
	`duration_ms` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`workspace_id`, `site_id`, `property`, `day`, `value`)
);
--> statement-breakpoint
-- The rollup of the days before it existed: events and visitors by the events' day, visits by their first day
-- (one property a statement: D1 caps compound SELECTs; a visitor property is read once per visit, grouped).
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visitors`, `pageviews`, `events`)
SELECT `workspace_id`, `site_id`, date(`ts` / 1000, 'unixepoch'), 'source', `source`, count(DISTINCT `visitor`), sum(`name` = 'pageview'), count(*) FROM `analytics_events` GROUP BY 1, 2, 3, 5;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visits`, `bounces`, `duration_ms`)
SELECT v.`workspace_id`, v.`site_id`, v.`day`, 'source', coalesce(v.`source`, ''), count(*), sum(v.`pageviews` = 1 AND v.`events` = 1), sum(v.`last_at` - v.`started_at`)
FROM `analytics_visits` v GROUP BY 1, 2, 3, 5 HAVING true
ON CONFLICT (`workspace_id`, `site_id`, `property`, `day`, `value`) DO UPDATE SET `visits` = excluded.`visits`, `bounces` = excluded.`bounces`, `duration_ms` = excluded.`duration_ms`;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visitors`, `pageviews`, `events`)
SELECT `workspace_id`, `site_id`, date(`ts` / 1000, 'unixepoch'), 'channel', `channel`, count(DISTINCT `visitor`), sum(`name` = 'pageview'), count(*) FROM `analytics_events` GROUP BY 1, 2, 3, 5;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visits`, `bounces`, `duration_ms`)
SELECT v.`workspace_id`, v.`site_id`, v.`day`, 'channel', coalesce(v.`channel`, ''), count(*), sum(v.`pageviews` = 1 AND v.`events` = 1), sum(v.`last_at` - v.`started_at`)
FROM `analytics_visits` v GROUP BY 1, 2, 3, 5 HAVING true
ON CONFLICT (`workspace_id`, `site_id`, `property`, `day`, `value`) DO UPDATE SET `visits` = excluded.`visits`, `bounces` = excluded.`bounces`, `duration_ms` = excluded.`duration_ms`;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visitors`, `pageviews`, `events`)
SELECT `workspace_id`, `site_id`, date(`ts` / 1000, 'unixepoch'), 'referrer', `referrer`, count(DISTINCT `visitor`), sum(`name` = 'pageview'), count(*) FROM `analytics_events` GROUP BY 1, 2, 3, 5;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visits`, `bounces`, `duration_ms`)
SELECT v.`workspace_id`, v.`site_id`, v.`day`, 'referrer', coalesce(v.`referrer`, ''), count(*), sum(v.`pageviews` = 1 AND v.`events` = 1), sum(v.`last_at` - v.`started_at`)
FROM `analytics_visits` v GROUP BY 1, 2, 3, 5 HAVING true
ON CONFLICT (`workspace_id`, `site_id`, `property`, `day`, `value`) DO UPDATE SET `visits` = excluded.`visits`, `bounces` = excluded.`bounces`, `duration_ms` = excluded.`duration_ms`;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visitors`, `pageviews`, `events`)
SELECT `workspace_id`, `site_id`, date(`ts` / 1000, 'unixepoch'), 'utm_source', `utm_source`, count(DISTINCT `visitor`), sum(`name` = 'pageview'), count(*) FROM `analytics_events` GROUP BY 1, 2, 3, 5;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visits`, `bounces`, `duration_ms`)
SELECT v.`workspace_id`, v.`site_id`, v.`day`, 'utm_source', coalesce(v.`utm_source`, ''), count(*), sum(v.`pageviews` = 1 AND v.`events` = 1), sum(v.`last_at` - v.`started_at`)
FROM `analytics_visits` v GROUP BY 1, 2, 3, 5 HAVING true
ON CONFLICT (`workspace_id`, `site_id`, `property`, `day`, `value`) DO UPDATE SET `visits` = excluded.`visits`, `bounces` = excluded.`bounces`, `duration_ms` = excluded.`duration_ms`;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visitors`, `pageviews`, `events`)
SELECT `workspace_id`, `site_id`, date(`ts` / 1000, 'unixepoch'), 'utm_medium', `utm_medium`, count(DISTINCT `visitor`), sum(`name` = 'pageview'), count(*) FROM `analytics_events` GROUP BY 1, 2, 3, 5;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visits`, `bounces`, `duration_ms`)
SELECT v.`workspace_id`, v.`site_id`, v.`day`, 'utm_medium', coalesce(v.`utm_medium`, ''), count(*), sum(v.`pageviews` = 1 AND v.`events` = 1), sum(v.`last_at` - v.`started_at`)
FROM `analytics_visits` v GROUP BY 1, 2, 3, 5 HAVING true
ON CONFLICT (`workspace_id`, `site_id`, `property`, `day`, `value`) DO UPDATE SET `visits` = excluded.`visits`, `bounces` = excluded.`bounces`, `duration_ms` = excluded.`duration_ms`;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visitors`, `pageviews`, `events`)
SELECT `workspace_id`, `site_id`, date(`ts` / 1000, 'unixepoch'), 'utm_campaign', `utm_campaign`, count(DISTINCT `visitor`), sum(`name` = 'pageview'), count(*) FROM `analytics_events` GROUP BY 1, 2, 3, 5;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visits`, `bounces`, `duration_ms`)
SELECT v.`workspace_id`, v.`site_id`, v.`day`, 'utm_campaign', coalesce(v.`utm_campaign`, ''), count(*), sum(v.`pageviews` = 1 AND v.`events` = 1), sum(v.`last_at` - v.`started_at`)
FROM `analytics_visits` v GROUP BY 1, 2, 3, 5 HAVING true
ON CONFLICT (`workspace_id`, `site_id`, `property`, `day`, `value`) DO UPDATE SET `visits` = excluded.`visits`, `bounces` = excluded.`bounces`, `duration_ms` = excluded.`duration_ms`;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visitors`, `pageviews`, `events`)
SELECT `workspace_id`, `site_id`, date(`ts` / 1000, 'unixepoch'), 'utm_term', `utm_term`, count(DISTINCT `visitor`), sum(`name` = 'pageview'), count(*) FROM `analytics_events` GROUP BY 1, 2, 3, 5;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visits`, `bounces`, `duration_ms`)
SELECT v.`workspace_id`, v.`site_id`, v.`day`, 'utm_term', coalesce(v.`utm_term`, ''), count(*), sum(v.`pageviews` = 1 AND v.`events` = 1), sum(v.`last_at` - v.`started_at`)
FROM `analytics_visits` v GROUP BY 1, 2, 3, 5 HAVING true
ON CONFLICT (`workspace_id`, `site_id`, `property`, `day`, `value`) DO UPDATE SET `visits` = excluded.`visits`, `bounces` = excluded.`bounces`, `duration_ms` = excluded.`duration_ms`;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visitors`, `pageviews`, `events`)
SELECT `workspace_id`, `site_id`, date(`ts` / 1000, 'unixepoch'), 'utm_content', `utm_content`, count(DISTINCT `visitor`), sum(`name` = 'pageview'), count(*) FROM `analytics_events` GROUP BY 1, 2, 3, 5;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visits`, `bounces`, `duration_ms`)
SELECT v.`workspace_id`, v.`site_id`, v.`day`, 'utm_content', coalesce(v.`utm_content`, ''), count(*), sum(v.`pageviews` = 1 AND v.`events` = 1), sum(v.`last_at` - v.`started_at`)
FROM `analytics_visits` v GROUP BY 1, 2, 3, 5 HAVING true
ON CONFLICT (`workspace_id`, `site_id`, `property`, `day`, `value`) DO UPDATE SET `visits` = excluded.`visits`, `bounces` = excluded.`bounces`, `duration_ms` = excluded.`duration_ms`;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visitors`, `pageviews`, `events`)
SELECT `workspace_id`, `site_id`, date(`ts` / 1000, 'unixepoch'), 'browser', `browser`, count(DISTINCT `visitor`), sum(`name` = 'pageview'), count(*) FROM `analytics_events` GROUP BY 1, 2, 3, 5;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visits`, `bounces`, `duration_ms`)
SELECT v.`workspace_id`, v.`site_id`, v.`day`, 'browser', coalesce(x.`value`, ''), count(*), sum(v.`pageviews` = 1 AND v.`events` = 1), sum(v.`last_at` - v.`started_at`)
FROM `analytics_visits` v JOIN (SELECT `visit_id`, min(`browser`) AS `value` FROM `analytics_events` GROUP BY `visit_id`) x ON x.`visit_id` = v.`id` GROUP BY 1, 2, 3, 5 HAVING true
ON CONFLICT (`workspace_id`, `site_id`, `property`, `day`, `value`) DO UPDATE SET `visits` = excluded.`visits`, `bounces` = excluded.`bounces`, `duration_ms` = excluded.`duration_ms`;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visitors`, `pageviews`, `events`)
SELECT `workspace_id`, `site_id`, date(`ts` / 1000, 'unixepoch'), 'os', `os`, count(DISTINCT `visitor`), sum(`name` = 'pageview'), count(*) FROM `analytics_events` GROUP BY 1, 2, 3, 5;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visits`, `bounces`, `duration_ms`)
SELECT v.`workspace_id`, v.`site_id`, v.`day`, 'os', coalesce(x.`value`, ''), count(*), sum(v.`pageviews` = 1 AND v.`events` = 1), sum(v.`last_at` - v.`started_at`)
FROM `analytics_visits` v JOIN (SELECT `visit_id`, min(`os`) AS `value` FROM `analytics_events` GROUP BY `visit_id`) x ON x.`visit_id` = v.`id` GROUP BY 1, 2, 3, 5 HAVING true
ON CONFLICT (`workspace_id`, `site_id`, `property`, `day`, `value`) DO UPDATE SET `visits` = excluded.`visits`, `bounces` = excluded.`bounces`, `duration_ms` = excluded.`duration_ms`;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visitors`, `pageviews`, `events`)
SELECT `workspace_id`, `site_id`, date(`ts` / 1000, 'unixepoch'), 'device', `device`, count(DISTINCT `visitor`), sum(`name` = 'pageview'), count(*) FROM `analytics_events` GROUP BY 1, 2, 3, 5;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visits`, `bounces`, `duration_ms`)
SELECT v.`workspace_id`, v.`site_id`, v.`day`, 'device', coalesce(x.`value`, ''), count(*), sum(v.`pageviews` = 1 AND v.`events` = 1), sum(v.`last_at` - v.`started_at`)
FROM `analytics_visits` v JOIN (SELECT `visit_id`, min(`device`) AS `value` FROM `analytics_events` GROUP BY `visit_id`) x ON x.`visit_id` = v.`id` GROUP BY 1, 2, 3, 5 HAVING true
ON CONFLICT (`workspace_id`, `site_id`, `property`, `day`, `value`) DO UPDATE SET `visits` = excluded.`visits`, `bounces` = excluded.`bounces`, `duration_ms` = excluded.`duration_ms`;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visitors`, `pageviews`, `events`)
SELECT `workspace_id`, `site_id`, date(`ts` / 1000, 'unixepoch'), 'country', `country`, count(DISTINCT `visitor`), sum(`name` = 'pageview'), count(*) FROM `analytics_events` GROUP BY 1, 2, 3, 5;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visits`, `bounces`, `duration_ms`)
SELECT v.`workspace_id`, v.`site_id`, v.`day`, 'country', coalesce(x.`value`, ''), count(*), sum(v.`pageviews` = 1 AND v.`events` = 1), sum(v.`last_at` - v.`started_at`)
FROM `analytics_visits` v JOIN (SELECT `visit_id`, min(`country`) AS `value` FROM `analytics_events` GROUP BY `visit_id`) x ON x.`visit_id` = v.`id` GROUP BY 1, 2, 3, 5 HAVING true
ON CONFLICT (`workspace_id`, `site_id`, `property`, `day`, `value`) DO UPDATE SET `visits` = excluded.`visits`, `bounces` = excluded.`bounces`, `duration_ms` = excluded.`duration_ms`;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visitors`, `pageviews`, `events`)
SELECT `workspace_id`, `site_id`, date(`ts` / 1000, 'unixepoch'), 'region', `region`, count(DISTINCT `visitor`), sum(`name` = 'pageview'), count(*) FROM `analytics_events` GROUP BY 1, 2, 3, 5;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visits`, `bounces`, `duration_ms`)
SELECT v.`workspace_id`, v.`site_id`, v.`day`, 'region', coalesce(x.`value`, ''), count(*), sum(v.`pageviews` = 1 AND v.`events` = 1), sum(v.`last_at` - v.`started_at`)
FROM `analytics_visits` v JOIN (SELECT `visit_id`, min(`region`) AS `value` FROM `analytics_events` GROUP BY `visit_id`) x ON x.`visit_id` = v.`id` GROUP BY 1, 2, 3, 5 HAVING true
ON CONFLICT (`workspace_id`, `site_id`, `property`, `day`, `value`) DO UPDATE SET `visits` = excluded.`visits`, `bounces` = excluded.`bounces`, `duration_ms` = excluded.`duration_ms`;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visitors`, `pageviews`, `events`)
SELECT `workspace_id`, `site_id`, date(`ts` / 1000, 'unixepoch'), 'city', `city`, count(DISTINCT `visitor`), sum(`name` = 'pageview'), count(*) FROM `analytics_events` GROUP BY 1, 2, 3, 5;--> statement-breakpoint
INSERT INTO `analytics_daily_properties` (`workspace_id`, `site_id`, `day`, `property`, `value`, `visits`, `bounces`, `duration_ms`)
SELECT v.`workspace_id`, v.`site_id`, v.`day`, 'city', coalesce(x.`value`, ''), count(*), sum(v.`pageviews` = 1 AND v.`events` = 1), sum(v.`last_at` - v.`started_at`)
FROM `analytics_visits` v JOIN (SELECT `visit_id`, min(`city`) AS `value` FROM `analytics_events` GROUP BY `visit_id`) x ON x.`visit_id` = v.`id` GROUP BY 1, 2, 3, 5 HAVING true
ON CONFLICT (`workspace_id`, `site_id`, `property`, `day`, `value`) DO UPDATE SET `visits` = excluded.`visits`, `bounces` = excluded.`bounces`, `duration_ms` = excluded.`duration_ms`;

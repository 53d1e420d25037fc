ALTER TABLE `webhook_deliveries` ADD `response_body` text;--> statement-breakpoint
CREATE INDEX `events_workspace_subject_idx` ON `events` (`workspace_id`,json_extract(data, '$.id'),`created_at`);
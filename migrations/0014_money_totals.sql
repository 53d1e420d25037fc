CREATE TABLE `money_totals` (
	`workspace_id` integer NOT NULL,
	`kind` text NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `kind`, `currency`)
);

-- Every summed money column's running total per workspace and currency (money_totals), kept by triggers
-- in the transaction of each write, whatever code path makes it; a total above 2^53 - 1 minor units aborts
-- the write ('money_total_exceeded', answered 400 naming the field). Written by hand: drizzle-kit does not
-- manage triggers.
CREATE TRIGGER money_totals_bound_insert BEFORE INSERT ON money_totals WHEN NEW.amount > 9007199254740991
BEGIN
  SELECT RAISE(ABORT, 'money_total_exceeded');
END;
--> statement-breakpoint
CREATE TRIGGER money_totals_bound_update BEFORE UPDATE ON money_totals WHEN NEW.amount > 9007199254740991
BEGIN
  SELECT RAISE(ABORT, 'money_total_exceeded');
END;
--> statement-breakpoint
-- deals.value: existing rows first (total() never overflows; the bound caps what is already there).
INSERT INTO money_totals (workspace_id, kind, currency, amount)
  SELECT workspace_id, 'deals.value', currency, CAST(min(total(value), 9007199254740991) AS INTEGER) FROM deals GROUP BY workspace_id, currency;
--> statement-breakpoint
CREATE TRIGGER deals_money_insert AFTER INSERT ON deals
BEGIN
  INSERT INTO money_totals (workspace_id, kind, currency, amount) VALUES (NEW.workspace_id, 'deals.value', NEW.currency, coalesce(NEW.value, 0))
    ON CONFLICT (workspace_id, kind, currency) DO UPDATE SET amount = amount + excluded.amount;
END;
--> statement-breakpoint
CREATE TRIGGER deals_money_update AFTER UPDATE OF workspace_id, currency, value ON deals
BEGIN
  UPDATE money_totals SET amount = amount - coalesce(OLD.value, 0) WHERE workspace_id = OLD.workspace_id AND kind = 'deals.value' AND currency = OLD.currency;
  INSERT INTO money_totals (workspace_id, kind, currency, amount) VALUES (NEW.workspace_id, 'deals.value', NEW.currency, coalesce(NEW.value, 0))
    ON CONFLICT (workspace_id, kind, currency) DO UPDATE SET amount = amount + excluded.amount;
END;
--> statement-breakpoint
CREATE TRIGGER deals_money_delete AFTER DELETE ON deals
BEGIN
  UPDATE money_totals SET amount = amount - coalesce(OLD.value, 0) WHERE workspace_id = OLD.workspace_id AND kind = 'deals.value' AND currency = OLD.currency;
END;
--> statement-breakpoint
-- leads.value: existing rows first (total() never overflows; the bound caps what is already there).
INSERT INTO money_totals (workspace_id, kind, currency, amount)
  SELECT workspace_id, 'leads.value', currency, CAST(min(total(value), 9007199254740991) AS INTEGER) FROM leads GROUP BY workspace_id, currency;
--> statement-breakpoint
CREATE TRIGGER leads_money_insert AFTER INSERT ON leads
BEGIN
  INSERT INTO money_totals (workspace_id, kind, currency, amount) VALUES (NEW.workspace_id, 'leads.value', NEW.currency, coalesce(NEW.value, 0))
    ON CONFLICT (workspace_id, kind, currency) DO UPDATE SET amount = amount + excluded.amount;
END;
--> statement-breakpoint
CREATE TRIGGER leads_money_update AFTER UPDATE OF workspace_id, currency, value ON leads
BEGIN
  UPDATE money_totals SET amount = amount - coalesce(OLD.value, 0) WHERE workspace_id = OLD.workspace_id AND kind = 'leads.value' AND currency = OLD.currency;
  INSERT INTO money_totals (workspace_id, kind, currency, amount) VALUES (NEW.workspace_id, 'leads.value', NEW.currency, coalesce(NEW.value, 0))
    ON CONFLICT (workspace_id, kind, currency) DO UPDATE SET amount = amount + excluded.amount;
END;
--> statement-breakpoint
CREATE TRIGGER leads_money_delete AFTER DELETE ON leads
BEGIN
  UPDATE money_totals SET amount = amount - coalesce(OLD.value, 0) WHERE workspace_id = OLD.workspace_id AND kind = 'leads.value' AND currency = OLD.currency;
END;
--> statement-breakpoint
-- invoices.total: existing rows first (total() never overflows; the bound caps what is already there).
INSERT INTO money_totals (workspace_id, kind, currency, amount)
  SELECT workspace_id, 'invoices.total', currency, CAST(min(total(total), 9007199254740991) AS INTEGER) FROM invoices GROUP BY workspace_id, currency;
--> statement-breakpoint
CREATE TRIGGER invoices_money_insert AFTER INSERT ON invoices
BEGIN
  INSERT INTO money_totals (workspace_id, kind, currency, amount) VALUES (NEW.workspace_id, 'invoices.total', NEW.currency, coalesce(NEW.total, 0))
    ON CONFLICT (workspace_id, kind, currency) DO UPDATE SET amount = amount + excluded.amount;
END;
--> statement-breakpoint
CREATE TRIGGER invoices_money_update AFTER UPDATE OF workspace_id, currency, total ON invoices
BEGIN
  UPDATE money_totals SET amount = amount - coalesce(OLD.total, 0) WHERE workspace_id = OLD.workspace_id AND kind = 'invoices.total' AND currency = OLD.currency;
  INSERT INTO money_totals (workspace_id, kind, currency, amount) VALUES (NEW.workspace_id, 'invoices.total', NEW.currency, coalesce(NEW.total, 0))
    ON CONFLICT (workspace_id, kind, currency) DO UPDATE SET amount = amount + excluded.amount;
END;
--> statement-breakpoint
CREATE TRIGGER invoices_money_delete AFTER DELETE ON invoices
BEGIN
  UPDATE money_totals SET amount = amount - coalesce(OLD.total, 0) WHERE workspace_id = OLD.workspace_id AND kind = 'invoices.total' AND currency = OLD.currency;
END;

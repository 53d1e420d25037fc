-- Rollups the dashboard and the project lists read instead of aggregating every row on every request.
-- Triggers keep them exact in the same transaction as each write, whatever code path makes it (routes,
-- batches, hires, seeds, workspace moves). Written by hand: drizzle-kit does not manage triggers.

-- Live tasks per project and status.
INSERT INTO task_counts (workspace_id, project_id, status, tasks)
  SELECT workspace_id, project_id, status, count(*) FROM tasks WHERE deleted_at IS NULL GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER tasks_count_insert AFTER INSERT ON tasks WHEN NEW.deleted_at IS NULL
BEGIN
  INSERT INTO task_counts (workspace_id, project_id, status, tasks) VALUES (NEW.workspace_id, NEW.project_id, NEW.status, 1)
    ON CONFLICT (workspace_id, project_id, status) DO UPDATE SET tasks = tasks + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_count_update AFTER UPDATE OF workspace_id, project_id, status, deleted_at ON tasks
BEGIN
  UPDATE task_counts SET tasks = tasks - 1
    WHERE OLD.deleted_at IS NULL AND workspace_id = OLD.workspace_id AND project_id = OLD.project_id AND status = OLD.status;
  INSERT INTO task_counts (workspace_id, project_id, status, tasks) SELECT NEW.workspace_id, NEW.project_id, NEW.status, 1 WHERE NEW.deleted_at IS NULL
    ON CONFLICT (workspace_id, project_id, status) DO UPDATE SET tasks = tasks + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_count_delete AFTER DELETE ON tasks WHEN OLD.deleted_at IS NULL
BEGIN
  UPDATE task_counts SET tasks = tasks - 1 WHERE workspace_id = OLD.workspace_id AND project_id = OLD.project_id AND status = OLD.status;
END;
--> statement-breakpoint

-- Payments per UTC day and currency.
INSERT INTO payment_days (workspace_id, day, currency, amount, payments)
  SELECT workspace_id, CAST(paid_at / 86400000 AS INTEGER), currency, sum(amount), count(*) FROM payments GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER payments_day_insert AFTER INSERT ON payments
BEGIN
  INSERT INTO payment_days (workspace_id, day, currency, amount, payments) VALUES (NEW.workspace_id, CAST(NEW.paid_at / 86400000 AS INTEGER), NEW.currency, NEW.amount, 1)
    ON CONFLICT (workspace_id, day, currency) DO UPDATE SET amount = amount + excluded.amount, payments = payments + 1;
END;
--> statement-breakpoint
CREATE TRIGGER payments_day_update AFTER UPDATE OF workspace_id, paid_at, currency, amount ON payments
BEGIN
  UPDATE payment_days SET amount = amount - OLD.amount, payments = payments - 1
    WHERE workspace_id = OLD.workspace_id AND day = CAST(OLD.paid_at / 86400000 AS INTEGER) AND currency = OLD.currency;
  INSERT INTO payment_days (workspace_id, day, currency, amount, payments) VALUES (NEW.workspace_id, CAST(NEW.paid_at / 86400000 AS INTEGER), NEW.currency, NEW.amount, 1)
    ON CONFLICT (workspace_id, day, currency) DO UPDATE SET amount = amount + excluded.amount, payments = payments + 1;
END;
--> statement-breakpoint
CREATE TRIGGER payments_day_delete AFTER DELETE ON payments
BEGIN
  UPDATE payment_days SET amount = amount - OLD.amount, payments = payments - 1
    WHERE workspace_id = OLD.workspace_id AND day = CAST(OLD.paid_at / 86400000 AS INTEGER) AND currency = OLD.currency;
END;
--> statement-breakpoint

-- Invoices and what is due on them, per status and currency.
INSERT INTO invoice_balances (workspace_id, status, currency, invoices, due)
  SELECT workspace_id, status, currency, count(*), sum(total - amount_paid) FROM invoices GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER invoices_balance_insert AFTER INSERT ON invoices
BEGIN
  INSERT INTO invoice_balances (workspace_id, status, currency, invoices, due) VALUES (NEW.workspace_id, NEW.status, NEW.currency, 1, NEW.total - NEW.amount_paid)
    ON CONFLICT (workspace_id, status, currency) DO UPDATE SET invoices = invoices + 1, due = due + excluded.due;
END;
--> statement-breakpoint
CREATE TRIGGER invoices_balance_update AFTER UPDATE OF workspace_id, status, currency, total, amount_paid ON invoices
BEGIN
  UPDATE invoice_balances SET invoices = invoices - 1, due = due - (OLD.total - OLD.amount_paid)
    WHERE workspace_id = OLD.workspace_id AND status = OLD.status AND currency = OLD.currency;
  INSERT INTO invoice_balances (workspace_id, status, currency, invoices, due) VALUES (NEW.workspace_id, NEW.status, NEW.currency, 1, NEW.total - NEW.amount_paid)
    ON CONFLICT (workspace_id, status, currency) DO UPDATE SET invoices = invoices + 1, due = due + excluded.due;
END;
--> statement-breakpoint
CREATE TRIGGER invoices_balance_delete AFTER DELETE ON invoices
BEGIN
  UPDATE invoice_balances SET invoices = invoices - 1, due = due - (OLD.total - OLD.amount_paid)
    WHERE workspace_id = OLD.workspace_id AND status = OLD.status AND currency = OLD.currency;
END;

CREATE TABLE "transaction_totals" (
	"day" date NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"count" bigint NOT NULL,
	"amount_cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "transaction_totals_bucket_idx" ON "transaction_totals" USING btree ("type","status","day");--> statement-breakpoint
CREATE INDEX "transactions_type_status_created_idx" ON "transactions" USING btree ("type","status","created_at");--> statement-breakpoint

-- The admin figures (GET /api/admin/dashboard/stats) summed every completed transaction on each request: a scan
-- of the whole table, 0.3 s at a million rows and growing with it. transaction_totals keeps, per UTC day, type
-- and status, the count and sum of the rows, so the figures read days instead of rows.
--
-- Kept by statement-level triggers over the statement's transition tables (as the ledger's, 0008): the payout
-- job inserts a million rows in a few statements, and a row-level trigger would cost a million calls. Each
-- statement APPENDS its net change per bucket, never updates a shared row: a member's withdrawal and an
-- admin's refund lock ledger accounts in opposite orders to a bucket row, and an upsert here would make them
-- deadlock. The rows of one bucket are merged from time to time (foldTransactionTotals, with SKIP LOCKED); the
-- figure of a bucket is always the sum of its rows. An UPDATE that changes no bucket's count or sum (setting
-- entry_id) appends nothing.
CREATE FUNCTION transaction_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO transaction_totals (day, type, status, count, amount_cents)
    SELECT (created_at AT TIME ZONE 'UTC')::date, type, status, count(*), sum(amount_cents)
    FROM new_rows GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO transaction_totals (day, type, status, count, amount_cents)
    SELECT (created_at AT TIME ZONE 'UTC')::date, type, status, -count(*), -sum(amount_cents)
    FROM old_rows GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO transaction_totals (day, type, status, count, amount_cents)
    SELECT day, type, status, sum(n), sum(amount)
    FROM (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, type, status, 1 AS n, amount_cents AS amount FROM new_rows
      UNION ALL
      SELECT (created_at AT TIME ZONE 'UTC')::date, type, status, -1, -amount_cents FROM old_rows
    ) change
    GROUP BY 1, 2, 3
    HAVING sum(n) <> 0 OR sum(amount) <> 0;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER transactions_totals_insert AFTER INSERT ON transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_totals_apply();
--> statement-breakpoint
CREATE TRIGGER transactions_totals_update AFTER UPDATE ON transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_totals_apply();
--> statement-breakpoint
CREATE TRIGGER transactions_totals_delete AFTER DELETE ON transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_totals_apply();
--> statement-breakpoint
CREATE FUNCTION transaction_totals_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM transaction_totals;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER transactions_totals_truncate AFTER TRUNCATE ON transactions
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_totals_clear();
--> statement-breakpoint
INSERT INTO transaction_totals (day, type, status, count, amount_cents)
SELECT (created_at AT TIME ZONE 'UTC')::date, type, status, count(*), sum(amount_cents)
FROM transactions GROUP BY 1, 2, 3;

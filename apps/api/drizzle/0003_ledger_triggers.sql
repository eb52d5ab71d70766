-- The ledger's rules, kept by the database so no code path can break them.

-- 1. A posting moves its account's balance in the same statement; the account's CHECK then refuses a
--    negative member balance, whatever arrives at once (the row lock serialises concurrent postings).
CREATE FUNCTION ledger_apply_posting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ledger_accounts SET balance_cents = balance_cents + NEW.amount_cents WHERE id = NEW.account_id;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER postings_apply AFTER INSERT ON postings FOR EACH ROW EXECUTE FUNCTION ledger_apply_posting();
--> statement-breakpoint

-- 2. Every entry balances: checked at commit, once all its postings are in.
CREATE FUNCTION ledger_check_entry_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total numeric;
  lines integer;
BEGIN
  SELECT coalesce(sum(amount_cents), 0), count(*) INTO total, lines FROM postings WHERE entry_id = NEW.entry_id;
  IF total <> 0 OR lines < 2 THEN
    RAISE EXCEPTION 'journal entry % does not balance (sum %, % postings)', NEW.entry_id, total, lines
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER postings_balanced AFTER INSERT ON postings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_entry_balanced();
--> statement-breakpoint

-- 3. History is append-only: corrections are new entries, never edits.
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER postings_append_only BEFORE UPDATE OR DELETE ON postings FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER journal_entries_append_only BEFORE UPDATE OR DELETE ON journal_entries FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint

-- 4. The platform's own accounts exist from the start; they may run negative (they are where money comes
--    from and goes to, seen from the members' side).
INSERT INTO ledger_accounts (code, kind, allows_negative) VALUES
  ('platform:crypto_received', 'platform_crypto_received', true),
  ('platform:dividends_paid', 'platform_dividends_paid', true),
  ('platform:withdrawals_paid_out', 'platform_withdrawals_paid_out', true),
  ('platform:project_funding', 'platform_project_funding', true);

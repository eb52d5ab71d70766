-- The ledger's rules of 0003, kept per statement instead of per row.
--
-- 0003 applied each posting to its account with a row-level trigger (one UPDATE per posting) and checked each
-- entry with a deferred row-level constraint trigger (for every posting, a read of all its entry's postings
-- at commit). The payout job writes a million postings a day: that per-row work was most of its time, and made
-- an entry of n postings cost n² row reads. Both rules now run once per INSERT statement over its transition
-- table: the same guarantees, set-based.

DROP TRIGGER postings_apply ON postings;
--> statement-breakpoint
DROP TRIGGER postings_balanced ON postings;
--> statement-breakpoint
DROP FUNCTION ledger_apply_posting();
--> statement-breakpoint
DROP FUNCTION ledger_check_entry_balanced();
--> statement-breakpoint

-- 1. Every entry balances within the statement that writes its postings. Every writer (postEntry, the payout
--    job) writes all of an entry's postings in one INSERT; a statement that adds postings to an entry must
--    therefore sum to zero per entry, so an entry that balanced still balances (and postings are append-only).
--    A posting is never zero (postings_non_zero), so a balanced set of new postings has at least two. The
--    error is not a check_violation: that code means a balance below zero (postEntry says "Insufficient balance").
-- 2. Each account's balance moves by the sum of the statement's postings on it, in one UPDATE; the account's
--    CHECK then refuses a negative member balance, whatever arrives at once. The accounts are locked first, in
--    id order, so two statements touching the same accounts wait for each other instead of deadlocking. The
--    lock is FOR NO KEY UPDATE, the one the UPDATE takes (the balance is in no key): the postings' foreign keys
--    have already taken KEY SHARE on these accounts, which FOR UPDATE would have to wait out (a deadlock
--    between two statements holding KEY SHARE on the same account), and FOR NO KEY UPDATE does not.
CREATE FUNCTION ledger_apply_postings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unbalanced record;
BEGIN
  SELECT entry_id, sum(amount_cents) AS total INTO unbalanced
  FROM new_postings GROUP BY entry_id HAVING sum(amount_cents) <> 0 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'journal entry % does not balance (its new postings sum to %)', unbalanced.entry_id, unbalanced.total
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;

  PERFORM 1 FROM ledger_accounts WHERE id IN (SELECT account_id FROM new_postings) ORDER BY id FOR NO KEY UPDATE;
  UPDATE ledger_accounts a SET balance_cents = a.balance_cents + s.total
  FROM (SELECT account_id, sum(amount_cents)::bigint AS total FROM new_postings GROUP BY account_id) s
  WHERE a.id = s.account_id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER postings_apply AFTER INSERT ON postings REFERENCING NEW TABLE AS new_postings
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_apply_postings();
--> statement-breakpoint

-- 3. Half of each page of ledger_accounts is left free, so that a balance update writes the row's new version
--    on its own page (a HOT update: no new entry in the three indexes, two of them on random keys). The payout
--    job updates a million wallets a day; full pages made that four times slower (docs/performance.md). The
--    setting applies to pages written from now on: an existing large ledger is rewritten to it with
--    VACUUM FULL ledger_accounts, in a quiet moment (docs/operations.md).
ALTER TABLE ledger_accounts SET (fillfactor = 50);

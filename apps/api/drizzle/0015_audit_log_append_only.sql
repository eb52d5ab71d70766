-- The audit log is append-only in the database too: no code path, and no request, can edit or erase a
-- recorded decision. There is no switch to turn this off: a later migration that must change the table drops
-- the trigger, makes its change and creates the trigger again, all inside that migration's own transaction.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
-- TRUNCATE fires no row trigger: it is refused by a statement trigger of its own.
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

CREATE TABLE "sandbox_payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"withdrawal_id" text NOT NULL,
	"asset" text NOT NULL,
	"address" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"tx_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"completes_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sandbox_payouts_withdrawal_id_unique" UNIQUE("withdrawal_id")
);
--> statement-breakpoint
CREATE TABLE "withdrawal_addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"asset" text NOT NULL,
	"address" text NOT NULL,
	"confirmed_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "withdrawal_approvals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" uuid NOT NULL,
	"admin_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"transaction_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"asset" text,
	"address" text NOT NULL,
	"fee_cents" bigint NOT NULL,
	"stage" text NOT NULL,
	"confirm_token_hash" text,
	"confirm_expires_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"approved_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"reason" text,
	"payout_provider" text,
	"payout_id" text,
	"payout_state" text,
	"payout_crypto_amount" text,
	"payout_crypto_currency" text,
	"payout_pull_payment_id" text,
	"payout_verified" boolean DEFAULT false NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"lease_until" timestamp with time zone,
	"next_poll_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "withdrawals_confirm_token_hash_unique" UNIQUE("confirm_token_hash"),
	CONSTRAINT "withdrawals_stage_check" CHECK ("withdrawals"."stage" in ('awaiting_confirmation', 'awaiting_approval', 'waiting_for_provider', 'sent', 'completed', 'failed', 'cancelled')),
	CONSTRAINT "withdrawals_fee_non_negative" CHECK ("withdrawals"."fee_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "withdrawal_addresses" ADD CONSTRAINT "withdrawal_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_approvals" ADD CONSTRAINT "withdrawal_approvals_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_approvals" ADD CONSTRAINT "withdrawal_approvals_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawal_addresses_once_idx" ON "withdrawal_addresses" USING btree ("user_id","asset","address");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawal_approvals_once_idx" ON "withdrawal_approvals" USING btree ("transaction_id","admin_id");--> statement-breakpoint
CREATE INDEX "withdrawals_user_created_idx" ON "withdrawals" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "withdrawals_dispatch_idx" ON "withdrawals" USING btree ("stage","next_attempt_at") WHERE "withdrawals"."stage" = 'waiting_for_provider';--> statement-breakpoint
CREATE INDEX "withdrawals_poll_idx" ON "withdrawals" USING btree ("stage","next_poll_at") WHERE "withdrawals"."stage" = 'sent';--> statement-breakpoint
CREATE INDEX "withdrawals_confirm_expiry_idx" ON "withdrawals" USING btree ("confirm_expires_at") WHERE "withdrawals"."stage" = 'awaiting_confirmation';--> statement-breakpoint
-- The platform's revenue from withdrawal fees: each completed payout moves its fee here from withdrawals paid out.
INSERT INTO "ledger_accounts" ("code", "kind", "allows_negative") VALUES ('platform:withdrawal_fees', 'platform_withdrawal_fees', true);
--> statement-breakpoint
-- Withdrawals requested before coins were named: no coin, no fee (their hold was the whole amount, paid out
-- whole), decided by hand as before.
INSERT INTO "withdrawals" ("transaction_id", "user_id", "asset", "address", "fee_cents", "stage", "finished_at", "created_at", "updated_at")
SELECT t."id", t."user_id", NULL, coalesce(t."wallet_address", ''), 0,
  CASE t."status" WHEN 'pending' THEN 'awaiting_approval' WHEN 'completed' THEN 'completed' ELSE 'failed' END,
  CASE WHEN t."status" = 'pending' THEN NULL ELSE coalesce(t."decided_at", t."updated_at") END,
  t."created_at", t."updated_at"
FROM "transactions" t WHERE t."type" = 'withdrawal';

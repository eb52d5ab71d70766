CREATE TABLE "dividend_payouts" (
	"membership_id" uuid NOT NULL,
	"business_day" date NOT NULL,
	"amount_cents" bigint NOT NULL,
	"transaction_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "dividend_payouts_membership_id_business_day_pk" PRIMARY KEY("membership_id","business_day"),
	CONSTRAINT "dividend_payouts_amount_positive" CHECK ("dividend_payouts"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"pack" text NOT NULL,
	"price_cents" bigint NOT NULL,
	"daily_dividend_cents" bigint NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"replaced_at" timestamp with time zone,
	"deposit_transaction_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_pack_check" CHECK ("memberships"."pack" in ('startium', 'ultimium', 'gold', 'platinum')),
	CONSTRAINT "memberships_status_check" CHECK ("memberships"."status" in ('active', 'replaced', 'ended')),
	CONSTRAINT "memberships_replaced_at" CHECK (("memberships"."status" = 'replaced') = ("memberships"."replaced_at" is not null)),
	CONSTRAINT "memberships_amounts_positive" CHECK ("memberships"."price_cents" > 0 and "memberships"."daily_dividend_cents" > 0),
	CONSTRAINT "memberships_window" CHECK ("memberships"."ends_at" > "memberships"."started_at")
);
--> statement-breakpoint
ALTER TABLE "dividend_payouts" ADD CONSTRAINT "dividend_payouts_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dividend_payouts" ADD CONSTRAINT "dividend_payouts_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dividend_payouts" ADD CONSTRAINT "dividend_payouts_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_deposit_transaction_id_transactions_id_fk" FOREIGN KEY ("deposit_transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dividend_payouts_transaction_unique" ON "dividend_payouts" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "dividend_payouts_day_idx" ON "dividend_payouts" USING btree ("business_day");--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_one_active_per_user" ON "memberships" USING btree ("user_id") WHERE "memberships"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_deposit_transaction_unique" ON "memberships" USING btree ("deposit_transaction_id");--> statement-breakpoint
CREATE INDEX "memberships_user_idx" ON "memberships" USING btree ("user_id","started_at" DESC NULLS LAST);--> statement-breakpoint

-- A paid dividend is history: dividend_payouts is append-only, like the journal (function from 0003).
CREATE TRIGGER dividend_payouts_append_only BEFORE UPDATE OR DELETE ON dividend_payouts FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

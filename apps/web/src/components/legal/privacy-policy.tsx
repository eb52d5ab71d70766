import { LegalSection } from './legal-text';

export function PrivacyPolicy({ contactEmail }: { contactEmail: string }) {
  return (
    <>
      <p className="text-sm leading-relaxed">
        This Privacy Policy explains how Terrafund collects, uses, protects and shares your personal information when
        you use our website and services. By creating an account you agree to the practices described here.
      </p>

      <div className="mt-6">
        <LegalSection title="Information We Collect">
          <p>
            We collect the information you give us when you register and use the platform: your name, e-mail address,
            phone number, password (stored only in hashed form), identity documents submitted for verification, and the
            cryptocurrency addresses and transactions linked to your membership. We also collect technical data such as
            your IP address, browser type and the pages you visit, to keep the service secure and working.
          </p>
        </LegalSection>

        <LegalSection title="How We Use Your Information">
          <p>
            We use your information to create and manage your account, process payments and withdrawals, verify your
            identity as required by anti-money-laundering rules, send you service messages such as verification codes
            and transaction notices, answer your requests, prevent fraud and improve our services. With your consent we
            may also send you news about new projects and plans.
          </p>
        </LegalSection>

        <LegalSection title="How We Protect Your Information">
          <p>
            We protect your data with encryption in transit, hashed passwords, restricted staff access and regular
            security reviews. Identity documents are stored separately and are only seen by the staff who review them.
            No method of transmission or storage is completely secure, but we work to protect your information and will
            inform you of any breach that affects you as the law requires.
          </p>
        </LegalSection>

        <LegalSection title="Sharing Your Information">
          <p>
            We do not sell your personal information. We share it only with service providers that help us run the
            platform, such as payment processors, identity-verification and e-mail providers, under contracts that
            require them to keep it confidential; with authorities when the law requires it; and with a successor
            company if Terrafund is merged or sold.
          </p>
        </LegalSection>

        <LegalSection title="Your Rights">
          <p>You have the right to:</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>access the personal information we hold about you;</li>
            <li>correct information that is inaccurate or incomplete;</li>
            <li>ask us to delete your information, unless we must keep it by law;</li>
            <li>opt out of marketing communications at any time.</li>
          </ul>
        </LegalSection>

        <LegalSection title="Contact Us">
          <p>
            To exercise these rights or ask about this policy, write to{' '}
            <a
              href={`mailto:${contactEmail}`}
              className="font-medium text-emerald-700 underline underline-offset-2 hover:text-emerald-600 dark:text-emerald-400"
            >
              {contactEmail}
            </a>
            .
          </p>
        </LegalSection>
      </div>
    </>
  );
}

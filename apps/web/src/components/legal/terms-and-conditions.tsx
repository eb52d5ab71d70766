import { LegalSection } from './legal-text';

/** The eight sections of docs/product.md §1.3 Marketing and legal texts, in order. */
const TERMS = [
  {
    title: 'Acceptance of Terms',
    text: 'By accessing or using the Terrafund website and services, you agree to be bound by these Terms and Conditions and by our Privacy Policy. If you do not agree with any part of these terms, you must not use our services.',
  },
  {
    title: 'Account Registration',
    text: 'To use our services you must be at least 18 years old and create an account with accurate, current and complete information, and keep it up to date. You are responsible for keeping your password confidential and for all activity under your account. We may ask you to verify your identity before you invest or withdraw funds.',
  },
  {
    title: 'Use of Services',
    text: 'You agree to use our services only for lawful purposes and in line with these terms. You must not use the platform to launder money, finance illegal activity, interfere with its security or operation, or access another member’s account. Membership plans are non-refundable, and past or projected returns do not guarantee future results.',
  },
  {
    title: 'Intellectual Property',
    text: 'All content on the platform, including text, graphics, logos, software and data, is the property of Terrafund or its licensors and is protected by intellectual property laws. You may not copy, modify, distribute or create derivative works from it without our prior written permission.',
  },
  {
    title: 'Disclaimer of Warranties',
    text: 'Our services are provided “as is” and “as available”, without warranties of any kind, express or implied, including warranties of merchantability, fitness for a particular purpose and non-infringement. We do not warrant that the services will be uninterrupted, error-free or secure, or that any investment will reach a given return.',
  },
  {
    title: 'Limitation of Liability',
    text: 'To the fullest extent permitted by law, Terrafund and its officers, employees and partners will not be liable for any indirect, incidental, special, consequential or punitive damages, or for any loss of profits, data or investment value, arising from your use of or inability to use our services.',
  },
  {
    title: 'Governing Law',
    text: 'These terms are governed by and construed in accordance with the laws of the State of New Jersey, United States, without regard to its conflict-of-law provisions. Any dispute arising from these terms or our services will be subject to the exclusive jurisdiction of the state and federal courts located in New Jersey.',
  },
  {
    title: 'Termination',
    text: 'We may suspend or terminate your account and access to our services at any time, with or without notice, if you breach these terms or if required by law. You may close your account at any time by contacting support. Sections that by their nature should survive termination will remain in effect.',
  },
] as const;

export function TermsAndConditions() {
  return (
    <>
      <p className="text-sm leading-relaxed">
        Please read these Terms and Conditions carefully before using Terrafund. They govern your access to and use of
        our website and services.
      </p>
      <ol className="mt-6">
        {TERMS.map((term, index) => (
          <li key={term.title} className="mt-6 first:mt-0">
            <LegalSection title={`${index + 1}. ${term.title}`}>
              <p>{term.text}</p>
            </LegalSection>
          </li>
        ))}
      </ol>
    </>
  );
}

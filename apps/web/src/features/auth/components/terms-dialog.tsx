import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

/** The headings of the Terms and Conditions (spec section 1), readable without leaving the form. */
const sections = [
  ['Acceptance of terms', 'By creating an account you agree to these terms and to our Privacy Policy.'],
  ['Account registration', 'You give accurate information, keep your password secret and are responsible for activity on your account.'],
  ['Use of services', 'You use the platform lawfully and only for your own investments. Membership plans are non-refundable.'],
  ['Intellectual property', 'The platform, its content and its brand belong to Terrafund and its licensors.'],
  ['Disclaimer of warranties', 'The services are provided as they are. Returns are not guaranteed and past results do not predict future ones.'],
  ['Limitation of liability', 'Terrafund is not liable for indirect or consequential losses arising from the use of the platform.'],
  ['Governing law', 'These terms are governed by the laws of the State of New Jersey.'],
  ['Termination', 'We may suspend or close an account that breaks these terms; you may close yours at any time.'],
] as const;

export function TermsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Terms and Conditions"
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <ol className="space-y-4">
        {sections.map(([heading, text], index) => (
          <li key={heading}>
            <h3 className="font-semibold text-slate-900 dark:text-white">
              {index + 1}. {heading}
            </h3>
            <p className="mt-1">{text}</p>
          </li>
        ))}
      </ol>
    </Dialog>
  );
}

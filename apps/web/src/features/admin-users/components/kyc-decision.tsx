import { useState } from 'react';
import type { UserWithKyc } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { CheckCircleIcon, XCircleIcon } from 'lucide-react';
import { useT } from '@/lib/i18n';
import { useVerifyKyc } from '../api/verify-kyc';
import { RejectKycDialog } from './reject-kyc-dialog';

/** Approve and Reject for a pending KYC; the caller shows it only while the KYC is pending (docs/product.md §4.1 Statuses). */
export function KycDecision({ user }: { user: UserWithKyc }) {
  const verify = useVerifyKyc();
  const { t } = useT('admin');
  const [rejecting, setRejecting] = useState(false);
  const deciding = verify.isPending ? verify.variables.verified : null;
  const name = `${user.firstName} ${user.lastName}`;

  return (
    <div className="flex flex-wrap gap-2">
      <Button
        onClick={() => verify.mutate({ userId: user._id, verified: true })}
        isLoading={deciding === true}
        disabled={verify.isPending}
      >
        {deciding !== true && <CheckCircleIcon className="h-4 w-4" />}
        {t('users.kyc.approve')}
      </Button>
      <Button variant="danger" onClick={() => setRejecting(true)} disabled={verify.isPending}>
        <XCircleIcon className="h-4 w-4" />
        {t('users.kyc.reject')}
      </Button>
      <RejectKycDialog
        open={rejecting}
        name={name}
        isPending={deciding === false}
        onClose={() => setRejecting(false)}
        onConfirm={(reason) =>
          verify.mutate({ userId: user._id, verified: false, rejectionReason: reason }, { onSuccess: () => setRejecting(false) })
        }
      />
    </div>
  );
}

import type { Ref } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import toast from 'react-hot-toast';
import { changePasswordForm, messages, type ChangePasswordForm } from '@terrafund/contracts';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { NewPasswordFields } from '@/components/ui/new-password-fields';
import { PasswordInput } from '@/components/ui/password-input';
import { SubmitRow } from '@/components/ui/submit-row';
import { onFormError } from '@/lib/form-errors';
import { useChangePassword } from '../api/change-password';
import { SectionHeader } from './section-header';

const empty: ChangePasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Current, new and confirmed password, each with show/hide; cleared after a change (docs/product.md §2.7 The session in the browser). */
export function ChangePasswordCard({ ref }: { ref?: Ref<HTMLElement> }) {
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(changePasswordForm), defaultValues: empty });

  const onSubmit = handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          toast.success(messages.auth.passwordChanged);
          reset(empty);
        },
        onError: onFormError(setError, { currentPassword: 'current password', newPassword: 'new password' }, messages.toasts.passwordChangeFailed),
      },
    ),
  );

  return (
    <Card>
      <section ref={ref} aria-labelledby="change-password-title" className="scroll-mt-24">
        <SectionHeader
          id="change-password-title"
          title="Change password"
          description="Changing your password signs you out on your other devices."
        />
        <form onSubmit={onSubmit} noValidate className="space-y-5 px-5 py-5 sm:px-6">
          <FormField label="Current password" error={errors.currentPassword?.message}>
            {(control) => <PasswordInput {...control} {...register('currentPassword')} autoComplete="current-password" />}
          </FormField>
          <div className="grid gap-5 sm:grid-cols-2">
            <NewPasswordFields field="newPassword" label="New password" register={register} errors={errors} />
          </div>
          <SubmitRow isLoading={change.isPending}>Update password</SubmitRow>
        </form>
      </section>
    </Card>
  );
}

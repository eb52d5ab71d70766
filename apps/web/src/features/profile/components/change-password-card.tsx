import { useMemo, type Ref } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import toast from 'react-hot-toast';
import { changePasswordFormFor, loadPasswordStrength, messages, type ChangePasswordForm, type User } from '@terrafund/contracts';
import { FormField } from '@/components/ui/form-field';
import { NewPasswordFields } from '@/components/ui/new-password-fields';
import { PasswordInput } from '@/components/ui/password-input';
import { SubmitRow } from '@/components/ui/submit-row';
import { onFormError } from '@/lib/form-errors';
import { useT } from '@/lib/i18n';
import { useChangePassword } from '../api/change-password';
import { ProfileCard } from './profile-card';

const empty: ChangePasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * Current, new and confirmed password, each with show/hide; cleared after a change (docs/product.md §2.7 The
 * session in the browser). The new one meets the API's strength rule, checked against the member's own names.
 */
export function ChangePasswordCard({ user, ref }: { user: Pick<User, 'email' | 'firstName' | 'lastName'>; ref?: Ref<HTMLElement> }) {
  const change = useChangePassword();
  const { t, say } = useT('profile');
  const schema = useMemo(
    () => changePasswordFormFor({ email: user.email, firstName: user.firstName, lastName: user.lastName }),
    [user.email, user.firstName, user.lastName],
  );
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(schema), defaultValues: empty });

  const onSubmit = handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          toast.success(say(messages.auth.passwordChanged));
          reset(empty);
        },
        onError: onFormError(setError, { currentPassword: 'current password', newPassword: 'new password' }, say(messages.toasts.passwordChangeFailed)),
      },
    ),
  );

  return (
    <ProfileCard id="change-password-title" ref={ref} className="scroll-mt-24" title={t('password.title')} description={t('password.description')}>
      {/* The strength rule's word lists start loading when the form is first used, not with the page. */}
      <form onSubmit={onSubmit} onFocus={() => void loadPasswordStrength()} noValidate className="space-y-5 px-5 py-5 sm:px-6">
        <FormField label={t('password.current')} error={errors.currentPassword?.message && say(errors.currentPassword.message)}>
          {(control) => <PasswordInput {...control} {...register('currentPassword')} autoComplete="current-password" />}
        </FormField>
        <div className="grid gap-5 sm:grid-cols-2">
          <NewPasswordFields field="newPassword" label={t('password.new')} register={register} errors={errors} />
        </div>
        <SubmitRow isLoading={change.isPending}>{t('password.submit')}</SubmitRow>
      </form>
    </ProfileCard>
  );
}

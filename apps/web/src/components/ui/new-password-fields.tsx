import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from './form-field';
import { PasswordInput } from './password-input';
import { useT } from '@/lib/i18n';

type PasswordField = 'password' | 'newPassword';

type NewPasswordFieldsProps<F extends PasswordField> = {
  /** The form's name for the new password; its confirmation is always `confirmPassword`. */
  field: F;
  /** "Password" or "New password"; the confirmation is labelled "Confirm password" or "Confirm new password". */
  label: string;
  /** The confirmation's label, when it is not one of those two (or the label is already translated). */
  confirmLabel?: string;
  register: (name: F | 'confirmPassword') => UseFormRegisterReturn;
  errors: Partial<Record<F | 'confirmPassword', { message?: string }>>;
};

/** A new password and its confirmation, as sign-up, the password reset and the password change ask for them. */
export function NewPasswordFields<F extends PasswordField>({ field, label, confirmLabel, register, errors }: NewPasswordFieldsProps<F>) {
  const { t } = useT();
  const confirmation = confirmLabel ?? (field === 'password' ? t('fields.confirmPassword') : t('fields.confirmNewPassword'));
  return (
    <>
      <FormField label={label} error={errors[field]?.message} hint={t('fields.passwordHint')}>
        {(control) => <PasswordInput {...control} {...register(field)} autoComplete="new-password" />}
      </FormField>
      <FormField label={confirmation} error={errors.confirmPassword?.message}>
        {(control) => <PasswordInput {...control} {...register('confirmPassword')} autoComplete="new-password" />}
      </FormField>
    </>
  );
}

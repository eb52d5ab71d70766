import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from './form-field';
import { PasswordInput } from './password-input';

type PasswordField = 'password' | 'newPassword';

type NewPasswordFieldsProps<F extends PasswordField> = {
  /** The form's name for the new password; its confirmation is always `confirmPassword`. */
  field: F;
  /** "Password" or "New password"; the confirmation is labelled "Confirm password" or "Confirm new password". */
  label: string;
  register: (name: F | 'confirmPassword') => UseFormRegisterReturn;
  errors: Partial<Record<F | 'confirmPassword', { message?: string }>>;
};

/** A new password and its confirmation, as sign-up, the password reset and the password change ask for them. */
export function NewPasswordFields<F extends PasswordField>({ field, label, register, errors }: NewPasswordFieldsProps<F>) {
  return (
    <>
      <FormField label={label} error={errors[field]?.message} hint="At least 8 characters.">
        {(control) => <PasswordInput {...control} {...register(field)} autoComplete="new-password" />}
      </FormField>
      <FormField label={`Confirm ${label.toLowerCase()}`} error={errors.confirmPassword?.message}>
        {(control) => <PasswordInput {...control} {...register('confirmPassword')} autoComplete="new-password" />}
      </FormField>
    </>
  );
}

import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocation, useNavigate } from 'react-router';
import { loadPasswordStrength, messages, registerForm } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NameFields } from '@/components/ui/name-fields';
import { NewPasswordFields } from '@/components/ui/new-password-fields';
import { TextLink } from '@/components/ui/text-link';
import { onFormError } from '@/lib/form-errors';
import { needsVerification } from '../api/login';
import { useRegister } from '../api/register';
import { AuthFooter, AuthScreen, AuthSubmitButton, EmailField } from './auth-screen';
import { VerifyEmailForm } from './verify-email-form';
import { LegalModal } from '@/components/legal/legal-modal';
import { TermsAndConditions } from '@/components/legal/terms-and-conditions';
import { useT } from '@/lib/i18n';

/** Registration (docs/product.md §2.4 Public screens), followed by the e-mail code screen: every new account is verified first. */
export function RegisterForm() {
  const location = useLocation();
  const navigate = useNavigate();
  const [verifyEmail, setVerifyEmail] = useState<string | null>(null);
  const [termsOpen, setTermsOpen] = useState(false);
  const registration = useRegister();
  const { t } = useT('auth');
  const optional = <span className="text-xs font-normal text-slate-400 dark:text-slate-500">{t('register.optional')}</span>;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(registerForm),
    defaultValues: { firstName: '', lastName: '', email: '', phone: '', password: '', confirmPassword: '', terms: false },
  });

  // On a failed submit react-hook-form focuses the first invalid field in the order the fields were registered.
  // The text fields register inside FormField's render prop, after this body has run, so without this the
  // terms box (registered here) would come first; registering them all here, in screen order, fixes it.
  for (const name of ['firstName', 'lastName', 'email', 'phone', 'password', 'confirmPassword', 'terms'] as const) register(name);

  const onSubmit = handleSubmit(({ firstName, lastName, email, phone, password }) =>
    registration.mutate(
      { firstName, lastName, email, phone, password },
      {
        onSuccess: (response) => {
          if (needsVerification(response)) setVerifyEmail(response.email);
        },
        onError: onFormError(
          setError,
          { firstName: 'first name', lastName: 'last name', email: 'email', phone: 'phone', password: 'password' },
          messages.toasts.registrationFailed,
        ),
      },
    ),
  );

  if (verifyEmail) {
    return (
      <VerifyEmailForm
        email={verifyEmail}
        remember
        onBack={() => navigate(paths.login.getHref(), { state: location.state })}
      />
    );
  }

  return (
    <AuthScreen pageTitle={t('register.pageTitle')} title={t('register.title')} intro={t('register.intro')}>
      {/* The strength rule's word lists start loading when the form is first used, not with the page. */}
      <form onSubmit={onSubmit} onFocus={() => void loadPasswordStrength()} noValidate className="space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <NameFields register={register} errors={errors} />
        </div>

        <EmailField {...register('email')} error={errors.email?.message} />

        <FormField label={t('register.phone')} labelAside={optional} error={errors.phone?.message}>
          {(control) => <Input {...control} {...register('phone')} type="tel" autoComplete="tel" placeholder="+1 555 123 4567" />}
        </FormField>

        <NewPasswordFields field="password" label={t('password')} register={register} errors={errors} />

        <Checkbox
          id="register-terms"
          {...register('terms')}
          error={errors.terms?.message}
          label={
            <>
              {t('register.agree')}{' '}
              <button
                type="button"
                onClick={(event) => {
                  // The button sits inside the checkbox's label: reading the terms must not tick the box.
                  event.preventDefault();
                  setTermsOpen(true);
                }}
                className="rounded-sm font-medium text-emerald-600 underline-offset-2 hover:underline max-sm:inline-flex max-sm:min-h-11 max-sm:items-center focus-visible:outline-2 focus-visible:outline-emerald-500 dark:text-emerald-400"
              >
                {t('register.terms')}
              </button>
            </>
          }
        />

        <AuthSubmitButton isLoading={registration.isPending}>{t('register.submit')}</AuthSubmitButton>
      </form>

      <AuthFooter prompt={t('register.haveAccount')}>
        <TextLink to={paths.login.getHref()} state={location.state}>
          {t('register.signIn')}
        </TextLink>
      </AuthFooter>

      <LegalModal title={t('register.termsTitle')} open={termsOpen} onClose={() => setTermsOpen(false)}>
        <TermsAndConditions />
      </LegalModal>
    </AuthScreen>
  );
}

import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import toast from 'react-hot-toast';
import { messages, updateProfileBody, type User } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NameFields } from '@/components/ui/name-fields';
import { SubmitRow } from '@/components/ui/submit-row';
import { onFormError } from '@/lib/form-errors';
import { useT } from '@/lib/i18n';
import { useUpdateProfile } from '../api/update-profile';
import { SectionHeader } from './section-header';

/** What the member may change here: the API's own rules, with both names required. */
const personalInfoForm = updateProfileBody
  .pick({ firstName: true, lastName: true, phone: true })
  .required({ firstName: true, lastName: true, phone: true });

type PersonalInfo = { firstName: string; lastName: string; phone: string };

const valuesOf = (user: User): PersonalInfo => ({ firstName: user.firstName, lastName: user.lastName, phone: user.phone });

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-sm break-words text-slate-900 dark:text-white">{children}</dd>
    </div>
  );
}

/** Spec section 2: Edit and Cancel toggle the form; the e-mail address cannot be changed. */
export function PersonalInfoCard({ user }: { user: User }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateProfile();
  const { t, say } = useT('profile');
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<PersonalInfo>({ resolver: zodResolver(personalInfoForm), defaultValues: valuesOf(user) });

  const startEditing = () => {
    reset(valuesOf(user));
    setEditing(true);
  };

  const cancel = () => {
    reset(valuesOf(user));
    setEditing(false);
  };

  const onSubmit = handleSubmit((values) =>
    update.mutate(
      // The spec's client sends the e-mail too; it is the current one, unchanged.
      { ...values, email: user.email },
      {
        onSuccess: (saved) => {
          toast.success(say(messages.toasts.profileUpdated));
          reset(valuesOf(saved));
          setEditing(false);
        },
        onError: onFormError(setError, { firstName: 'first name', lastName: 'last name', phone: 'phone' }, say(messages.toasts.profileUpdateFailed)),
      },
    ),
  );

  return (
    <Card>
      <SectionHeader
        id="personal-info-title"
        title={t('personal.title')}
        description={t('personal.description')}
        action={
          editing ? (
            <Button variant="ghost" size="sm" onClick={cancel} disabled={update.isPending}>
              {t('personal.cancel')}
            </Button>
          ) : (
            <Button variant="outline" size="sm" onClick={startEditing}>
              {t('personal.edit')}
            </Button>
          )
        }
      />
      <div className="px-5 py-5 sm:px-6">
        {editing ? (
          <form onSubmit={onSubmit} noValidate aria-labelledby="personal-info-title" className="space-y-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <NameFields register={register} errors={errors} />
              <FormField label={t('personal.email')} hint={t('personal.emailHint')}>
                {(control) => <Input {...control} value={user.email} readOnly type="email" className="read-only:bg-slate-50 read-only:text-slate-500 dark:read-only:bg-slate-800/60 dark:read-only:text-slate-400" />}
              </FormField>
              <FormField label={t('personal.phone')} error={errors.phone?.message && say(errors.phone.message)}>
                {(control) => <Input {...control} {...register('phone')} type="tel" autoComplete="tel" placeholder={t('personal.phonePlaceholder')} />}
              </FormField>
            </div>
            <SubmitRow isLoading={update.isPending}>{t('personal.save')}</SubmitRow>
          </form>
        ) : (
          <dl className="grid gap-5 sm:grid-cols-2">
            <Detail label={t('personal.firstName')}>{user.firstName}</Detail>
            <Detail label={t('personal.lastName')}>{user.lastName}</Detail>
            <Detail label={t('personal.email')}>{user.email}</Detail>
            <Detail label={t('personal.phone')}>
              {user.phone || <span className="text-slate-400 dark:text-slate-500">{t('personal.notProvided')}</span>}
            </Detail>
          </dl>
        )}
      </div>
    </Card>
  );
}

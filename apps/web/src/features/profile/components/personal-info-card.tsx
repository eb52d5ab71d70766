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
          toast.success(messages.toasts.profileUpdated);
          reset(valuesOf(saved));
          setEditing(false);
        },
        onError: onFormError(setError, { firstName: 'first name', lastName: 'last name', phone: 'phone' }, messages.toasts.profileUpdateFailed),
      },
    ),
  );

  return (
    <Card>
      <SectionHeader
        id="personal-info-title"
        title="Personal information"
        description="Your name and how we can reach you."
        action={
          editing ? (
            <Button variant="ghost" size="sm" onClick={cancel} disabled={update.isPending}>
              Cancel
            </Button>
          ) : (
            <Button variant="outline" size="sm" onClick={startEditing}>
              Edit
            </Button>
          )
        }
      />
      <div className="px-5 py-5 sm:px-6">
        {editing ? (
          <form onSubmit={onSubmit} noValidate aria-labelledby="personal-info-title" className="space-y-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <NameFields register={register} errors={errors} />
              <FormField label="Email" hint="Your e-mail address cannot be changed.">
                {(control) => <Input {...control} value={user.email} readOnly type="email" className="read-only:bg-slate-50 read-only:text-slate-500 dark:read-only:bg-slate-800/60 dark:read-only:text-slate-400" />}
              </FormField>
              <FormField label="Phone" error={errors.phone?.message}>
                {(control) => <Input {...control} {...register('phone')} type="tel" autoComplete="tel" placeholder="+1 555 123 4567" />}
              </FormField>
            </div>
            <SubmitRow isLoading={update.isPending}>Save changes</SubmitRow>
          </form>
        ) : (
          <dl className="grid gap-5 sm:grid-cols-2">
            <Detail label="First name">{user.firstName}</Detail>
            <Detail label="Last name">{user.lastName}</Detail>
            <Detail label="Email">{user.email}</Detail>
            <Detail label="Phone">
              {user.phone || <span className="text-slate-400 dark:text-slate-500">Not provided</span>}
            </Detail>
          </dl>
        )}
      </div>
    </Card>
  );
}

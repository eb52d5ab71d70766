import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Link, type LinkProps } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { useT } from '@/lib/i18n';

const iconTones = {
  brand: 'bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400',
  warning: 'bg-amber-50 text-amber-600 dark:bg-amber-500/10 dark:text-amber-400',
} as const;

type AuthScreenProps = {
  /** The browser tab's title; a step shown inside another screen (the e-mail code, "check your email") keeps that one's. */
  pageTitle?: string;
  icon?: ReactNode;
  iconTone?: keyof typeof iconTones;
  title: ReactNode;
  /** The text under the heading. */
  intro?: ReactNode;
  children: ReactNode;
};

/** One screen of the sign-in pages: its tab title, its heading block, then the form or the actions. */
export function AuthScreen({ pageTitle, icon, iconTone = 'brand', title, intro, children }: AuthScreenProps) {
  return (
    <div>
      {pageTitle && <title>{pageTitle}</title>}
      <div className="mb-8">
        {icon && <span className={`mb-5 flex h-12 w-12 items-center justify-center rounded-xl ${iconTones[iconTone]}`}>{icon}</span>}
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl dark:text-white">{title}</h1>
        {intro && <div className="mt-2 text-sm text-slate-500 sm:text-base dark:text-slate-400">{intro}</div>}
      </div>
      {children}
    </div>
  );
}

/** A sentence about the address the screen is about ("We sent a code to … ."), with the address picked out. */
export function EmailSentence({ before, email, after }: { before: string; email: string; after: string }) {
  return (
    <>
      {before} <span className="font-medium break-words text-slate-900 dark:text-white">{email}</span>
      {after}
    </>
  );
}

/** The e-mail field of the sign-in, registration and reset-link forms. */
export function EmailField({ error, ...registration }: UseFormRegisterReturn<'email'> & { error?: string }) {
  const { t } = useT('auth');
  return (
    <FormField label={t('email')} error={error}>
      {(control) => <Input {...control} {...registration} type="email" autoComplete="email" placeholder={t('emailPlaceholder')} />}
    </FormField>
  );
}

/** An auth form's one submit button, the full width of the form. */
export function AuthSubmitButton({ isLoading, children }: { isLoading: boolean; children: ReactNode }) {
  return (
    <Button type="submit" size="lg" className="w-full" isLoading={isLoading}>
      {children}
    </Button>
  );
}

/** A screen's main way on when it has no form (back to sign-in, a new reset link): a link that looks like the submit button. */
export function AuthLinkButton(props: Omit<LinkProps, 'className'>) {
  return <Link className={buttonClasses({ size: 'lg', className: 'w-full' })} {...props} />;
}

/** The line under an auth form: a muted question with its link ("No account? Create one"), or a link alone. */
export function AuthFooter({ prompt, children }: { prompt?: ReactNode; children: ReactNode }) {
  return (
    <p className={cn('mt-8 text-center text-sm', Boolean(prompt) && 'text-slate-500 dark:text-slate-400')}>
      {prompt && (
        <>
          {prompt}{' '}
        </>
      )}
      {children}
    </p>
  );
}

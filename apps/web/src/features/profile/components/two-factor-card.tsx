import { useEffect, useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import toast from 'react-hot-toast';
import { messages, type TwoFactorSetup, type User } from '@terrafund/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { ShieldCheckIcon } from 'lucide-react';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { localizeMessage } from '@terrafund/contracts/i18n';
import { errorMessage } from '@/lib/api-client';
import { i18n, useT } from '@/lib/i18n';
import { useDisableTwoFactor } from '../api/disable-two-factor';
import { useEnableTwoFactor } from '../api/enable-two-factor';
import { useSetupTwoFactor } from '../api/setup-two-factor';
import { ProfileCard } from './profile-card';
import { wrappingButton } from './section-header';
import { SettingSummary } from './setting-summary';

/** The otpauth:// address as a QR code (an SVG, so nothing needs a canvas), for the authenticator app to scan. */
function QrCode({ value }: { value: string }) {
  const [src, setSrc] = useState<string>();
  const { t } = useT('profile');
  useEffect(() => {
    let live = true;
    void QRCode.toString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((svg) => {
      if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [value]);
  return (
    <div className="flex h-44 w-44 items-center justify-center rounded-lg border border-slate-200 bg-white p-2 dark:border-slate-700">
      {src && <img src={src} alt={t('twoFactor.qr')} className="h-full w-full" />}
    </div>
  );
}

/** The ten recovery codes, shown once: Copy and Download, then done. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useT('profile');
  const text = `${t('twoFactor.codesFile')}\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(t('twoFactor.copied'));
    } catch {
      toast.error(t('twoFactor.copyFailed'));
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'terrafund-recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="space-y-4">
      <Alert tone="warning" title={t('twoFactor.saveTitle')}>
        {t('twoFactor.saveText')}
      </Alert>
      <ul aria-label={t('twoFactor.codes')} className="grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-4 font-mono text-sm dark:bg-slate-800/60">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void copy()}>
          {t('twoFactor.copy')}
        </Button>
        <Button variant="outline" size="sm" onClick={download}>
          {t('twoFactor.download')}
        </Button>
        <Button size="sm" onClick={onDone}>
          {t('twoFactor.done')}
        </Button>
      </div>
    </div>
  );
}

/** A two-factor flow's buttons: its submit (`submit`, in `variant`) and Cancel. */
function FlowButtons({ submit, variant, isLoading, onCancel }: { submit: string; variant?: 'danger'; isLoading: boolean; onCancel: () => void }) {
  const { t } = useT('profile');
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" variant={variant} isLoading={isLoading}>
        {submit}
      </Button>
      <Button type="button" variant="outline" onClick={onCancel}>
        {t('twoFactor.cancel')}
      </Button>
    </div>
  );
}

/** The server's refusal under the field it names (`password`, `code`), or as a toast when it names none. */
function fieldErrorsOf(failure: unknown): { password?: string; code?: string } {
  const fields = (failure as { fields?: Record<string, string> }).fields ?? {};
  if (!fields.password && !fields.code) toast.error(errorMessage(failure, localizeMessage(i18n.t, messages.toasts.genericError)));
  return { password: fields.password, code: fields.code };
}

const passwordRefusal = (failure: unknown) => (failure as { fields?: Record<string, string> }).fields?.password;

/**
 * Turning 2FA on: the password first (the server asks for it at setup and again at enable, so a session alone
 * cannot put its holder's authenticator on the account), then the QR code and the first code. The password
 * stays in this component's memory only until the flow ends.
 */
function EnableFlow({ onCancel, onEnabled }: { onCancel: () => void; onEnabled: (codes: string[]) => void }) {
  const setup = useSetupTwoFactor();
  const { t, say } = useT('profile');
  const enable = useEnableTwoFactor();
  const [secret, setSecret] = useState<TwoFactorSetup>();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});

  const start = (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setErrors({ password: messages.twoFactor.passwordIncorrect });
      return;
    }
    setErrors({});
    setup.mutate({ password }, { onSuccess: setSecret, onError: (failure) => setErrors(fieldErrorsOf(failure)) });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(typed)) {
      setErrors({ code: messages.twoFactor.codeRequired });
      return;
    }
    setErrors({});
    enable.mutate(
      { password, code: typed },
      {
        onSuccess: (answer) => {
          toast.success(say(messages.twoFactor.enabled));
          onEnabled(answer.recoveryCodes);
        },
        onError: (failure) => {
          const refusedPassword = passwordRefusal(failure);
          // A password refused now (changed meanwhile in another tab) sends the member back to the first step.
          if (refusedPassword) {
            setSecret(undefined);
            setCode('');
            setErrors({ password: refusedPassword });
            return;
          }
          setErrors({ code: errorMessage(failure, messages.twoFactor.codeInvalid) });
        },
      },
    );
  };

  if (!secret) {
    return (
      <form onSubmit={start} noValidate className="space-y-4">
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {t('twoFactor.start')}
        </p>
        <FormField label={t('twoFactor.password')} error={errors.password && say(errors.password)}>
          {(control) => <PasswordInput {...control} value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />}
        </FormField>
        <FlowButtons submit={t('twoFactor.continue')} isLoading={setup.isPending} onCancel={onCancel} />
      </form>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {t('twoFactor.scan')}
      </p>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <QrCode value={secret.otpauthUrl} />
        <div className="min-w-0">
          <p className="text-xs font-medium text-slate-500 uppercase">{t('twoFactor.secret')}</p>
          <p className="font-mono text-sm break-all text-slate-900 dark:text-white" data-testid="two-factor-secret">
            {secret.secret}
          </p>
        </div>
      </div>
      <FormField label={t('twoFactor.code')} error={errors.code && say(errors.code)}>
        {(control) => (
          <Input {...control} value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" autoComplete="one-time-code" maxLength={7} placeholder="123456" />
        )}
      </FormField>
      <FlowButtons submit={t('twoFactor.turnOn')} isLoading={enable.isPending} onCancel={onCancel} />
    </form>
  );
}

function DisableFlow({ onCancel, onDisabled }: { onCancel: () => void; onDisabled: () => void }) {
  const disable = useDisableTwoFactor();
  const { t, say } = useT('profile');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = { password: password ? undefined : messages.twoFactor.passwordIncorrect, code: code.trim() ? undefined : messages.twoFactor.recoveryOrCodeRequired };
    setErrors(missing);
    if (missing.password || missing.code) return;
    disable.mutate(
      { password, code: code.trim() },
      {
        onSuccess: () => {
          toast.success(say(messages.twoFactor.disabled));
          onDisabled();
        },
        onError: (failure) => setErrors(fieldErrorsOf(failure)),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label={t('twoFactor.password')} error={errors.password && say(errors.password)}>
        {(control) => <PasswordInput {...control} value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />}
      </FormField>
      <FormField label={t('twoFactor.codeOrRecovery')} error={errors.code && say(errors.code)}>
        {(control) => <Input {...control} value={code} onChange={(e) => setCode(e.target.value)} autoComplete="one-time-code" />}
      </FormField>
      <FlowButtons submit={t('twoFactor.turnOff')} variant="danger" isLoading={disable.isPending} onCancel={onCancel} />
    </form>
  );
}

/** Profile → Security: two-factor sign-in with an authenticator app (issue 15). */
export function TwoFactorCard({ user }: { user: User }) {
  const [mode, setMode] = useState<'idle' | 'enabling' | 'disabling'>('idle');
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const { t } = useT('profile');

  return (
    <ProfileCard title={t('twoFactor.title')}>
      <div className="space-y-4 px-5 py-5 sm:px-6">
        <SettingSummary
          icon={ShieldCheckIcon}
          title={user.twoFactorEnabled ? t('twoFactor.on') : t('twoFactor.off')}
          text={user.twoFactorEnabled ? t('twoFactor.onText') : t('twoFactor.offText')}
        />
        {recoveryCodes ? (
          <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(undefined)} />
        ) : mode === 'enabling' ? (
          <EnableFlow
            onCancel={() => setMode('idle')}
            onEnabled={(codes) => {
              setMode('idle');
              setRecoveryCodes(codes);
            }}
          />
        ) : mode === 'disabling' ? (
          <DisableFlow onCancel={() => setMode('idle')} onDisabled={() => setMode('idle')} />
        ) : user.twoFactorEnabled ? (
          <Button variant="outline" size="sm" className={`w-full ${wrappingButton}`} onClick={() => setMode('disabling')}>
            {t('twoFactor.disable')}
          </Button>
        ) : (
          <Button size="sm" className={`w-full ${wrappingButton}`} onClick={() => setMode('enabling')}>
            {t('twoFactor.enable')}
          </Button>
        )}
      </div>
    </ProfileCard>
  );
}

import type { ComponentType } from 'react';
import type { Catalogue } from '@terrafund/contracts/i18n';
import { Screen } from '@/components/ui/screen';
import { useT } from '@/lib/i18n';

type Options = {
  /** A way back above the heading: its address and the key of its label in the same namespace. */
  back?: { to: string; label: string };
};

/**
 * A route that is one screen of content under a heading: the heading and its explanation are `<texts>.title` and
 * `<texts>.description` of the namespace's catalogue, in the member's language.
 */
export function titledScreen(namespace: keyof Catalogue, texts: string, Content: ComponentType, options: Options = {}) {
  function TitledScreen() {
    const { t } = useT(namespace);
    const back = options.back && { to: options.back.to, label: t(options.back.label) };
    return (
      <Screen title={t(`${texts}.title`)} description={t(`${texts}.description`)} back={back}>
        <Content />
      </Screen>
    );
  }
  return TitledScreen;
}

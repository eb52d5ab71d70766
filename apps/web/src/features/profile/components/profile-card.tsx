import type { ReactNode, Ref } from 'react';
import { Card } from '@/components/ui/card';
import { SectionHeader } from './section-header';

type ProfileCardProps = {
  title: string;
  description?: string;
  /**
   * The heading's id. With it the card is a region named by its title (a `<section>` a screen reader lists and
   * the page can scroll to); without it a plain card under its header.
   */
  id?: string;
  ref?: Ref<HTMLElement>;
  /** Classes of the region. */
  className?: string;
  children: ReactNode;
};

/** A card of the profile page: its header (the title and a line of explanation), then what it holds. */
export function ProfileCard({ title, description, id, ref, className, children }: ProfileCardProps) {
  if (!id) {
    return (
      <Card>
        <SectionHeader title={title} description={description} />
        {children}
      </Card>
    );
  }
  return (
    <Card>
      <section ref={ref} aria-labelledby={id} className={className}>
        <SectionHeader id={id} title={title} description={description} />
        {children}
      </section>
    </Card>
  );
}

import type { PaymentSchedule, ProjectStatus, ProjectType } from '@terrafund/contracts';
import type { BadgeTone } from '@/components/ui/badge';
import { i18n } from '@/lib/i18n';

// Read while a component that speaks the admin namespace draws, so they follow the language it draws in.
export const typeLabel = (type: ProjectType) => i18n.t(`admin:projects.types.${type}`);
export const statusLabel = (status: ProjectStatus) => i18n.t(`admin:projects.statuses.${status}`);
export const scheduleLabel = (schedule: PaymentSchedule) => i18n.t(`admin:projects.schedules.${schedule}`);
export const STATUS_TONES: Record<ProjectStatus, BadgeTone> = { available: 'success', reserved: 'warning', sold: 'neutral' };

import type { PaymentSchedule, ProjectStatus, ProjectType } from '@terrafund/contracts';
import type { BadgeTone } from '@/components/ui/badge';

export const TYPE_LABELS: Record<ProjectType, string> = { residential: 'Residential', commercial: 'Commercial', land: 'Land' };
export const STATUS_LABELS: Record<ProjectStatus, string> = { available: 'Available', sold: 'Sold', reserved: 'Reserved' };
export const STATUS_TONES: Record<ProjectStatus, BadgeTone> = { available: 'success', reserved: 'warning', sold: 'neutral' };
export const SCHEDULE_LABELS: Record<PaymentSchedule, string> = { monthly: 'Monthly', quarterly: 'Quarterly', annually: 'Annually' };

/** Display colours of the project tag colours (spec platform §9), readable on light and dark themes. */
import type { TagColour } from '@decisio/domain';

export const TAG_COLOUR_HEX: Record<TagColour, string> = {
  ocean: '#1c6e8c',
  volcano: '#d4380d',
  gold: '#d48806',
  green: '#389e0d',
  cyan: '#08979c',
  blue: '#1d5fd6',
  purple: '#7a3fc4',
};

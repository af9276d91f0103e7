import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { renderPanel } from '@decisio/sdk-plugin/testing';
import { sdkPlugin } from '../index';

const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./LandingPanel', async (orig) => (loaded.push('LandingPanel'), orig()));
vi.mock('./MaintenancePanel', async (orig) => (loaded.push('MaintenancePanel'), orig()));

describe('LandingPanel', () => {
  afterEach(() => cleanup());

  it('is not loaded by importing the manifest', () => {
    expect(sdkPlugin.routes.map((r) => r.path)).toEqual(['/sdk', '/web', '/maintenance']);
    expect(loaded).toEqual([]);
  });

  it('explains the product and links to sign-in and sign-up', async () => {
    const { host } = await renderPanel(sdkPlugin.routes[0]!, { plugins: [sdkPlugin], locale: 'en-US' });
    expect(screen.getByText('Turn historical business data into deployable decision models')).toBeTruthy();
    fireEvent.click(screen.getByTestId('landing-sign-up'));
    expect(host.location().pathname).toBe('/sign-up');
    fireEvent.click(screen.getByTestId('landing-sign-in'));
    expect(host.location().pathname).toBe('/sign-in');
  });
});

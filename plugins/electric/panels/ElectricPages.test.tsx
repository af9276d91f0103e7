import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { navigationServiceRef } from '@decisio/sdk-plugin';
import { createTestHost, heldBack, withHost } from '@decisio/sdk-plugin/testing';
import { electricPlugin } from '../index';
import { ElectricConnectPage, ElectricHomePage, ElectricResult600Page, ElectricRoom330Page } from './ElectricPages';

// jsdom has no canvas: the charts record what they would draw instead (uPlot's own drawing is not under test).
const drawn = vi.hoisted(() => [] as unknown[][]);
vi.mock('@decisio/sdk-plugin/charts', () => ({
  useUPlot: (build: (u: unknown, axis: unknown) => { data: unknown[] }) => {
    drawn.push(build({}, {}).data);
    return { current: null };
  },
}));

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ step: i, time: new Date(Date.UTC(2026, 0, 1, 0, 15 * i)).toISOString() }));
const TEMPS = { site: '330', room: 3, rows: rows(4).map((r, i) => ({ ...r, temperature: [3.5, 6.25, 5, 2][i]!, doorOpen: i === 1 })) };
const PUMPS = { site: '330', room: 3, rows: rows(4).map((r, i) => ({ ...r, power: [1, 2, 3, 2][i]! })) };
const DECISION = { decisionId: 'a'.repeat(32), site: '600', temperature: 9.5, doorOpen: false, power: 10, predictedNext: 3.21, model: { kind: 'least-squares-dynamics+lookahead', coefficients: [0.4, 0.98, 2.9, -0.15, -0.6], heldOutMae: 0.081, trainingRows: 3600 }, createdAt: '2026-11-27T05:00:00.000Z' };
const RESULT = { ...DECISION, forecast: [{ step: 0, temperature: 9.5, power: 10 }, { step: 1, temperature: 3.21, power: 9.1 }], comparison: { episodes: 5, steps: 200, model: { meanReturn: -40.2, meanDeviation: 0.15, meanPower: 1.8 }, logged: { meanReturn: -260.4, meanDeviation: 1.2, meanPower: 2.1 } } };

type Locale = 'en-US' | 'zh-CN';
function host(locale: Locale = 'en-US', search: Record<string, string> = {}, pathname = '/electric', signedIn = false) {
  return createTestHost({ plugins: [electricPlugin], locale, location: { pathname, search }, ...(signedIn ? { session: { token: 't', userId: 'u1' } } : {}) });
}

describe('electric public pages', () => {
  afterEach(cleanup);

  it('the home page says what answers, in both languages, and opens a room', () => {
    const h = host();
    render(withHost(h, <ElectricHomePage />));
    expect(screen.getByTestId('electric-model').textContent).toContain('not a trained reinforcement-learning policy');
    fireEvent.click(screen.getAllByText('Try it')[1]!);
    expect(h.navigations.at(-1)?.pathname).toBe('/electric/600');
    cleanup();
    render(withHost(host('zh-CN'), <ElectricHomePage />));
    expect(screen.getByTestId('electric-model').textContent).toContain('不是训练出的强化学习策略');
  });

  it('offers a signed-in user the way back to the electric template in the workbench, in both languages', async () => {
    for (const [locale, label] of [['en-US', 'Back to the template centre'], ['zh-CN', '返回模板中心']] as const) {
      const h = host(locale, { decisionId: DECISION.decisionId }, '/electric/600/result', true);
      h.mockCall('electricShow/getSuperTemperatureResult', { code: 0, data: RESULT });
      render(withHost(h, <ElectricResult600Page />));
      const back = screen.getByTestId('electric-back');
      expect(back.textContent).toBe(label);
      fireEvent.click(back);
      expect(h.navigations.at(-1)?.pathname).toBe('/template-center/industry/electric');
      cleanup();
    }
    // A visitor without an account has no workbench to go back to.
    render(withHost(host(), <ElectricHomePage />));
    expect(screen.queryByTestId('electric-back')).toBeNull();
  });

  it('a room shows its logged series and sends a decision without a token, then opens its result', async () => {
    const h = host('en-US', {}, '/electric/330');
    h.mockCall('electricShow/getTemperatureControlList', { code: 0, data: TEMPS });
    h.mockCall('electricShow/getPumpControlList', { code: 0, data: PUMPS });
    h.mockCall('electricShow/decisionSuperTemperature', { code: 0, data: { ...DECISION, site: '330' } });
    render(withHost(h, <ElectricRoom330Page />));
    expect((await screen.findByTestId('electric-summary')).textContent).toBe('Highest temperature 6.25 °C, door open in 1 quarter-hours, mean power 2.00.');
    expect(drawn.at(-2)).toEqual([[0, 1, 2, 3], [3.5, 6.25, 5, 2]]);
    expect(drawn.at(-1)).toEqual([[0, 1, 2, 3], [1, 2, 3, 2]]);
    fireEvent.click(screen.getByTestId('electric-door'));
    fireEvent.click(screen.getByTestId('electric-decide'));
    await waitFor(() => expect(h.navigations.at(-1)?.pathname).toBe('/electric/330/result'));
    expect(h.navigations.at(-1)?.search).toEqual({ decisionId: DECISION.decisionId });
    const call = h.calls.find((c) => c.url === 'electricShow/decisionSuperTemperature')!;
    expect(call.body).toEqual({ site: '330', temperature: 8, doorOpen: true });
  });

  it('a room refuses a temperature out of range and shows the server\'s refusal (rate limit) in Chinese', async () => {
    const h = host('zh-CN', {}, '/electric/330');
    h.mockCall('electricShow/getTemperatureControlList', { code: 0, data: TEMPS });
    h.mockCall('electricShow/getPumpControlList', { code: 0, data: PUMPS });
    h.mockCall('electricShow/decisionSuperTemperature', { code: 1020, data: null, message: '请求过于频繁' });
    render(withHost(h, <ElectricRoom330Page />));
    await screen.findByTestId('electric-summary');
    const input = screen.getByTestId('electric-temperature') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '45' } });
    expect(screen.getByText('介于 -20 与 20 °C 之间')).toBeTruthy();
    expect((screen.getByTestId('electric-decide') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: '12' } });
    fireEvent.click(screen.getByTestId('electric-decide'));
    expect((await screen.findByTestId('electric-decide-failed')).textContent).toContain('请求过于频繁');
  });

  it('a room shows loading, then the error state with a retry', async () => {
    const h = host();
    h.mockCall('electricShow/getTemperatureControlList', { code: 1020, data: null, message: 'Too many requests' });
    h.mockCall('electricShow/getPumpControlList', { code: 0, data: PUMPS });
    render(withHost(h, <ElectricRoom330Page />));
    expect(screen.getByLabelText('Loading')).toBeTruthy();
    expect((await screen.findByTestId('electric-error')).textContent).toContain('The demo could not answer.');
  });

  it('the result page shows the decision, the fit and the measured comparison, in both languages', async () => {
    for (const [locale, decision, model] of [
      ['en-US', 'the model sets the cooling power to 10.00; it predicts 3.21 °C', 'This model'],
      ['zh-CN', '模型将制冷功率设为 10.00；预测 15 分钟后为 3.21 °C', '本模型'],
    ] as const) {
      const h = host(locale, { decisionId: DECISION.decisionId }, '/electric/600/result');
      h.mockCall('electricShow/getSuperTemperatureResult', { code: 0, data: RESULT });
      render(withHost(h, <ElectricResult600Page />));
      expect((await screen.findByTestId('electric-decision')).textContent).toContain(decision);
      expect(screen.getByTestId('electric-model').textContent).toContain('3600');
      const table = screen.getByTestId('electric-comparison').textContent!;
      expect(table).toContain(model);
      expect(table).toContain('-40.2');
      expect(table).toContain('-260.4');
      expect(h.calls.find((c) => c.url === 'electricShow/getSuperTemperatureResult')!.body).toEqual({ decisionId: DECISION.decisionId });
      cleanup();
    }
  });

  it("the result page shows another decision's answer only, loading meanwhile", async () => {
    const h = host('en-US', { decisionId: DECISION.decisionId }, '/electric/600/result');
    const other = { ...RESULT, decisionId: 'c'.repeat(32), power: 7, predictedNext: 4.56 };
    const gate = heldBack();
    h.mockCall('electricShow/getSuperTemperatureResult', async (body) => {
      if ((body as { decisionId: string }).decisionId === other.decisionId) await gate.wait;
      return { code: 0, data: (body as { decisionId: string }).decisionId === other.decisionId ? other : RESULT };
    });
    render(withHost(h, <ElectricResult600Page />));
    expect((await screen.findByTestId('electric-decision')).textContent).toContain('3.21');
    act(() => h.services.get(navigationServiceRef).navigate('/electric/600/result', { search: { decisionId: other.decisionId } }));
    await waitFor(() => expect(screen.queryByTestId('electric-decision')).toBeNull());
    expect(screen.getByLabelText('Loading')).toBeTruthy();
    gate.release();
    expect((await screen.findByTestId('electric-decision')).textContent).toContain('4.56');
  });

  it('the result page without a decision asks for one', async () => {
    const h = host('en-US', {}, '/electric/600/result');
    render(withHost(h, <ElectricResult600Page />));
    expect(screen.getByTestId('electric-result-empty').textContent).toContain('No decision yet');
    fireEvent.click(screen.getByText('Make a decision'));
    expect(h.navigations.at(-1)?.pathname).toBe('/electric/600');
  });

  it('an unknown or malformed decision id shows "not found" with a new decision, never a retry that cannot help (both languages)', async () => {
    // notFound (1009): no such decision; paramInvalid (1008): not a decision id at all.
    for (const [locale, code, title, action] of [
      ['en-US', 1009, 'This decision was not found', 'Make a decision'],
      ['en-US', 1008, 'This decision was not found', 'Make a decision'],
      ['zh-CN', 1009, '未找到该决策', '去做决策'],
    ] as const) {
      const h = host(locale, { decisionId: 'b'.repeat(32) }, '/electric/600/result');
      h.mockCall('electricShow/getSuperTemperatureResult', { code, data: null, message: 'Not found' });
      render(withHost(h, <ElectricResult600Page />));
      const state = await screen.findByTestId('electric-result-not-found');
      expect(state.textContent).toContain(title);
      expect(screen.queryByTestId('electric-error')).toBeNull();
      expect(screen.queryByText(locale === 'en-US' ? 'Retry' : '重试')).toBeNull();
      fireEvent.click(screen.getByText(action));
      expect(h.navigations.at(-1)?.pathname).toBe('/electric/600');
      cleanup();
    }
  });

  it('a transient failure of the result (network, server error) offers a retry that fetches again', async () => {
    for (const reply of ['network', { code: 1002, data: null, message: 'Internal server error' }] as const) {
      const h = host('en-US', { decisionId: 'b'.repeat(32) }, '/electric/600/result');
      h.mockCall('electricShow/getSuperTemperatureResult', reply);
      render(withHost(h, <ElectricResult600Page />));
      expect(await screen.findByTestId('electric-error')).toBeTruthy();
      expect(screen.queryByTestId('electric-result-not-found')).toBeNull();
      h.mockCall('electricShow/getSuperTemperatureResult', { code: 0, data: RESULT });
      fireEvent.click(screen.getByText('Retry'));
      expect((await screen.findByTestId('electric-decision')).textContent).toContain('3.21');
      cleanup();
    }
  });

  it('the contact page sends the form through workOrder/createContact', async () => {
    const h = host('zh-CN');
    h.mockCall('workOrder/createContact', { code: 0, data: { id: 'c'.repeat(32) } });
    render(withHost(h, <ElectricConnectPage />));
    fireEvent.change(screen.getByLabelText('姓名'), { target: { value: 'Ada' } });
    fireEvent.change(screen.getByLabelText('邮箱'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('留言'), { target: { value: 'Two cold rooms' } });
    fireEvent.click(screen.getByText('发送'));
    expect((await screen.findByTestId('electric-contact-sent')).textContent).toBe('谢谢，您的留言已发送。');
    expect(h.calls.find((c) => c.url === 'workOrder/createContact')!.body).toEqual({ name: 'Ada', company: '', email: 'ada@example.com', mobile: '', content: 'Two cold rooms' });
  });
});

import { describe, expect, it } from 'vitest';
import { messageOf } from '../errors/messages';
import { validationMessage } from '../errors/validation';
import { jobFailureText } from './failure';

describe('jobFailureText', () => {
  it('keeps English as recorded and null as null', () => {
    expect(jobFailureText('The server restarted', 'en-US')).toBe('The server restarted');
    expect(jobFailureText(null, 'zh-CN')).toBeNull();
    expect(jobFailureText('', 'en-US')).toBeNull();
  });

  it("translates the queue's reasons, keeping their variable parts", () => {
    expect(jobFailureText('Worker w-1 stopped responding (no heartbeat for 30 s); gave up after 3 attempts', 'zh-CN')).toBe('工作节点 w-1 无响应（30 秒无心跳）；尝试 3 次后放弃');
    expect(jobFailureText('The worker thread running the job exited with code 7', 'zh-CN')).toBe('运行该任务的工作线程已退出（代码 7）');
    expect(jobFailureText('The environment was deleted', 'zh-CN')).toBe('环境已被删除');
  });

  it("translates catalogue messages and code names (a service's failure reason)", () => {
    expect(jobFailureText(messageOf('insufficientResources', 'en-US'), 'zh-CN')).toBe(messageOf('insufficientResources', 'zh-CN'));
    expect(jobFailureText('policyNotFound', 'en-US')).toBe(messageOf('policyNotFound', 'en-US'));
    expect(jobFailureText('policyNotFound', 'zh-CN')).toBe(messageOf('policyNotFound', 'zh-CN'));
    // An AppError recorded with its detail: the message and a validation key translated, another detail kept.
    expect(jobFailureText(`${messageOf('tableNotFound', 'en-US')}: validation.invalid`, 'zh-CN')).toBe(`${messageOf('tableNotFound', 'zh-CN')}：${validationMessage('validation.invalid', 'zh-CN')}`);
    expect(jobFailureText(`${messageOf('tableNotFound', 'en-US')}: validation.invalid`, 'en-US')).toBe(`${messageOf('tableNotFound', 'en-US')}: Invalid value`);
    expect(jobFailureText(`${messageOf('tableNotFound', 'en-US')}: sales`, 'zh-CN')).toBe(`${messageOf('tableNotFound', 'zh-CN')}：sales`);
  });

  it('passes unknown text as written', () => {
    expect(jobFailureText('Traceback (most recent call last): ...', 'zh-CN')).toBe('Traceback (most recent call last): ...');
  });
});

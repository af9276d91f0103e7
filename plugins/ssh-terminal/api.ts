/** The SSH terminal calls on the base api (server module `ssh`). */
import type { SshConnectReply, SshConnectRequest, SshForgetHostKeyRequest } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

export const sshEndpoints = (build: PluginEndpointBuilder) => ({
  'ssh-terminal/connect': build.mutation<SshConnectReply, SshConnectRequest>({ query: (body) => ({ url: 'ssh/connect', body }) }),
  'ssh-terminal/close': build.mutation<null, { sessionId: string }>({ query: (body) => ({ url: 'ssh/close', body }) }),
  'ssh-terminal/forgetHostKey': build.mutation<{ removed: boolean }, SshForgetHostKeyRequest>({ query: (body) => ({ url: 'ssh/forgetHostKey', body }) }),
});

export const sshApi = definePluginApi('ssh-terminal', sshEndpoints);

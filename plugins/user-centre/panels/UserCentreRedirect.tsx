import { useEffect } from 'react';
import { Spinner } from '@blueprintjs/core';
import { useNavigate } from '@decisio/sdk-plugin';

/** `/user-center` opens `/user-center/info` (spec platform §2). */
export function UserCentreRedirect() {
  const navigate = useNavigate();
  useEffect(() => navigate('/user-center/info', { replace: true }), [navigate]);
  return <Spinner size={24} />;
}

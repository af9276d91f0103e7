/** `/gfs`: goes to `/gfs/online-trial` (spec workflow §2), replacing the history entry. */
import { useEffect } from 'react';
import { useNavigate } from '@decisio/sdk-plugin';

export function GfsRedirect() {
  const navigate = useNavigate();
  useEffect(() => navigate('/gfs/online-trial', { replace: true }), [navigate]);
  return null;
}

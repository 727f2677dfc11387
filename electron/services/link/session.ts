/**
 * The link's session requests (docs/protocol.md "Sessions"): a guest account, a login, a
 * registration, a resume, a logout, the balance and a new nickname. What the operator's answers do to
 * the link's session (the token, the account, the automatic resume after a drop) stays in link.ts.
 */
import type { ServerMessageOf } from '../../../shared/protocol/messages';
import { askWith, type Reply, type SendRequest } from './types';

/** Who a real-money account belongs to (R-AGE, R-BANNED). */
export type Identity = { lastName: string; firstNames: string; birthDate: string };

export interface SessionDeps {
  request: SendRequest;
  /** The last `seq` of every followed table, for the operator to replay what was missed. */
  resumeList(): { tableId: string; lastSeq: number }[];
  /** The operator ended the session on our `logout`. */
  loggedOut(): void;
}

export class SessionRequests {
  constructor(private readonly d: SessionDeps) {}

  /** A new guest account (play money only). */
  guest(): Promise<Reply<ServerMessageOf<'authed'>>> {
    return askWith<'authed'>(this.d.request, { type: 'guest' });
  }

  login(username: string, password: string): Promise<Reply<ServerMessageOf<'authed'>>> {
    return askWith<'authed'>(this.d.request, { type: 'login', username, password });
  }

  /** `identity`: a real-money account (R-AGE, R-BANNED); without it, play money only. */
  register(username: string, password: string, identity?: Identity): Promise<Reply<ServerMessageOf<'authed'>>> {
    return askWith<'authed'>(this.d.request, identity ? { type: 'register', username, password, identity } : { type: 'register', username, password });
  }

  /** A new nickname; refused while seated anywhere (`NAME_WHILE_SEATED`). */
  rename(username: string): Promise<Reply<ServerMessageOf<'account'>>> {
    return askWith<'account'>(this.d.request, { type: 'account.rename', username });
  }

  /** Resumes a kept session (the token is kept for the automatic resumes that follow). */
  resume(token: string): Promise<Reply<ServerMessageOf<'authed'>>> {
    return askWith<'authed'>(this.d.request, { type: 'resume', token, tables: this.d.resumeList() });
  }

  async logout(): Promise<Reply<ServerMessageOf<'ok'>>> {
    const r = await askWith<'ok'>(this.d.request, { type: 'logout' });
    if (r.ok) this.d.loggedOut();
    return r;
  }

  balance(): Promise<Reply<ServerMessageOf<'balance'>>> {
    return askWith<'balance'>(this.d.request, { type: 'balance' });
  }
}

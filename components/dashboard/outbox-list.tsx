'use client';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { formatDate } from '@/lib/format';
import { useApi } from '../ui/use-api';
import { Link } from '@/components/ui/link';

type Message = {
  id: string;
  channel: string;
  recipient: string;
  subject: string | null;
  body: string;
  status: string;
  createdAt: string;
};

/** Splits text into plain parts and clickable http(s) links. */
function linkify(text: string) {
  return text.split(/(https?:\/\/\S+)/g).map((part, i) =>
    /^https?:\/\//.test(part) ? (
      <Link key={i} href={part} className="break-all text-brand underline">
        {part}
      </Link>
    ) : (
      part
    ),
  );
}

/** `/dev/outbox`: the e-mails and SMS the outbox providers stored, newest first, links clickable. */
export function OutboxList() {
  const t = useTranslations('Outbox');
  const api = useApi();
  const [messages, setMessages] = useState<Message[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.call('GET /dev/outbox').then(setMessages, (e: Error) => setError(e.message));
  }, [api]);
  return (
    <section>
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      <p className="mt-2 text-sm text-slate-600">{t('note')}</p>
      {error && (
        <p role="alert" className="mt-4">
          {error}
        </p>
      )}
      {messages?.length === 0 && <p className="mt-4">{t('empty')}</p>}
      <ul className="mt-4 space-y-3">
        {messages?.map((m) => (
          <li
            key={m.id}
            className="rounded-xl bg-white p-4 ring-1 ring-slate-200"
            data-testid={`outbox-${m.channel}`}
            data-recipient={m.recipient}
          >
            <p className="text-xs uppercase text-slate-500">
              {m.channel} · {t('to')} {m.recipient} · {t('status')} {m.status} ·{' '}
              {formatDate(m.createdAt, 'Y-m-d H:M:S')}
            </p>
            {m.subject && <p className="mt-1 font-semibold">{m.subject}</p>}
            <p className="mt-2 whitespace-pre-wrap text-sm">{linkify(m.body)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

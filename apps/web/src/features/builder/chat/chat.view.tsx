/*
 * The builder's chat (sidebar tab1 "Chat"): the conversation with the assistant, the queue,
 * the status line and the composer. State and rules live in ChatVm; this file only renders.
 *
 * Accessible names the end-to-end tests rely on (keep them stable):
 * - conversation: role log, name "Conversation"; each message is role article, name
 *   "User message" or "Assistant message"
 * - composer: textbox "Message the assistant" (Enter sends, Shift+Enter adds a line); buttons
 *   "Send" and "Enhance prompt"; switch "Auto-run plans" (aria-checked)
 * - status line: role status, name "Assistant status"; while the assistant works it reads
 *   "Analyzing your request", "Gathering project details" or "Building your app" followed by
 *   1–3 dots (they change every 500 ms); empty when idle
 * - cost line: "This message uses 1 credit" (with auto-run: "… 1 credit per task"; while a plan
 *   waits: "This plan uses N credits", the plan card's number) and the
 *   credits text "N credits left" ("1 credit left", "No credits left", "Unlimited credits")
 * - queued messages: list "Queued messages", each item with a button "Remove queued message"
 * - plan card inside an assistant message: heading "Plan", its tasks as list "Plan tasks"
 *   (each item says Pending / Running / Done / Failed), the cost "Uses N credits"; while it
 *   waits: buttons "Run plan" and "Cancel plan"; a plan that replaces the app says "This replaces
 *   your current app (its pages, theme and text). Continue?" and its button is "Replace my app"
 * - while a turn runs (once the server named it): button "Stop" next to the status line; a
 *   stopped reply ends "Stopped. Your app is as it was before this message; N credits refunded."
 * - final line of an assistant message: "Kept as a new version" (with a button "View version
 *   <short hash>" that opens the Versions tab), "Reverted: <reason>", "Failed: <reason>",
 *   "Plan cancelled. Nothing was charged."; a kept turn that changed nothing (no commit, no
 *   operation) reads "Done: nothing in your project needed to change."
 * - a refused user message says "Not sent: you have no credits left."
 * - an element picked in the preview: "Selected element" (tag and text) above the composer, with
 *   a button "Clear the selected element"; a sent message about one shows it under its bubble
 * - Problems (under the conversation): button "Problems" (aria-expanded) shows the list
 *   "Problems found"; each problem has "Fix with AI" (disabled, "Fixing…", while the
 *   assistant works on it); "Check for errors"
 * - attached files: see attachments.view.tsx ("Attach files", list "Attached files", "Files in this message")
 */
import {
  ArrowUp,
  Bot,
  CircleCheck,
  CircleDashed,
  CircleX,
  GitCommitHorizontal,
  Info,
  ListChecks,
  LoaderCircle,
  MousePointerClick,
  Sparkles,
  Square,
  TriangleAlert,
  Undo2,
  WandSparkles,
  X,
} from 'lucide-react';
import type { SelectedElement } from '@kiln/domain';
import { observer } from 'mobx-react-lite';
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { cn } from '../../../ui/cn';
import { Skeleton } from '../../../ui/skeleton';
import { Tooltip } from '../../../ui/tooltip';
import { AttachButton, PendingFilesList, SentFiles, fileDropHandlers } from './attachments.view';
import { type AssistantMessage, checkSummary, type TaskProgress, type UserMessage, outcomeText, planCost, shortHash } from './chat-messages';
import { type ChatVm, MAX_MESSAGE_LENGTH } from './chat.vm';
import { creditsWord } from './credits.store';

/** Tab1 of the sidebar: conversation, problems (passed in), status line and composer. */
export const ChatPanel = observer(function ChatPanel({ chat, problems }: { chat: ChatVm; problems: ReactNode }) {
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <Conversation chat={chat} />
      {problems}
      <Composer chat={chat} />
    </div>
  );
});

// ── Conversation ───────────────────────────────────────────────────────────────────────────

const Conversation = observer(function Conversation({ chat }: { chat: ChatVm }) {
  const scroller = useRef<HTMLDivElement>(null);
  const last = chat.messages.at(-1);
  const lastSize = last === undefined ? 0 : last.kind === 'user' ? last.text.length : last.text.length + last.tasks.length + last.operations.length + last.status.length;
  // Follow the newest words while the reader is at the bottom.
  const pinned = useRef(true);
  useEffect(() => {
    const element = scroller.current;
    if (element !== null && pinned.current) element.scrollTop = element.scrollHeight;
  }, [chat.messages.length, lastSize, chat.problemsOpen, chat.queue.length]);
  const onScroll = () => {
    const element = scroller.current;
    if (element !== null) pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
  };

  return (
    <div ref={scroller} onScroll={onScroll} role="log" aria-label="Conversation" className="min-h-0 flex-1 overflow-y-auto px-3 py-4">
      {chat.history === 'loading' && chat.messages.length === 0 ? (
        <div className="grid gap-3" aria-busy>
          <Skeleton className="ml-auto h-10 w-3/4" />
          <Skeleton className="h-20 w-5/6" />
        </div>
      ) : chat.messages.length === 0 ? (
        <Welcome failed={chat.history === 'failed'} />
      ) : (
        <div className="grid grid-cols-1 gap-4">
          {chat.messages.map((message) =>
            message.kind === 'user' ? <UserBubble key={message.id} message={message} /> : <AssistantReply key={message.id} chat={chat} message={message} />,
          )}
        </div>
      )}
    </div>
  );
});

function Welcome({ failed }: { failed: boolean }) {
  return (
    <section className="mx-auto mt-6 max-w-xs text-center">
      <span className="mx-auto inline-flex size-10 items-center justify-center rounded-xl bg-brand-soft text-brand">
        <Sparkles className="size-5" aria-hidden />
      </span>
      <h2 className="mt-3 text-sm font-semibold">What should we build?</h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Describe a change in your own words: a new section, a colour, a page. Kiln plans it, makes it and keeps it as a new version.
      </p>
      {failed && <p className="mt-3 text-xs text-muted-foreground">Earlier messages could not be loaded just now.</p>}
    </section>
  );
}

const UserBubble = observer(function UserBubble({ message }: { message: UserMessage }) {
  return (
    <article aria-label="User message" className="ml-auto grid max-w-[85%] justify-items-end gap-1">
      <p className="rounded-2xl rounded-br-md bg-brand-soft px-3.5 py-2 text-sm break-words whitespace-pre-wrap text-foreground">{message.text}</p>
      {message.selected !== null && <SelectedElementChip element={message.selected} />}
      <SentFiles files={message.attachments} />
      {message.state === 'refused' && <p className="text-xs text-destructive">Not sent: you have no credits left.</p>}
    </article>
  );
});

const AssistantReply = observer(function AssistantReply({ chat, message }: { chat: ChatVm; message: AssistantMessage }) {
  const running = message.status === 'running';
  const waitingForWords = running && message.text === '' && message.plan === null && message.tasks.length === 0;
  return (
    <article aria-label="Assistant message" className="flex items-start gap-2.5">
      <span aria-hidden className="mt-0.5 inline-flex size-7 shrink-0 items-center justify-center rounded-lg bg-muted text-muted-foreground">
        <Bot className="size-4" />
      </span>
      <div className="grid min-w-0 flex-1 grid-cols-1 gap-2.5">
        {waitingForWords && (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <LoaderCircle className="size-3.5 animate-spin" aria-hidden /> Working on it…
          </p>
        )}
        {/* A plan comes first (it is decided before any words); a single task's progress follows the words. */}
        {message.plan !== null && message.plan.tasks.length > 1 && <PlanCard chat={chat} message={message} />}
        {message.text !== '' && <p className="text-sm leading-relaxed break-words whitespace-pre-wrap">{message.text}</p>}
        {(message.plan === null || message.plan.tasks.length <= 1) && message.tasks.length > 0 && <TaskList tasks={message.tasks} />}
        {message.operations.length > 0 && <Operations message={message} />}
        {message.checkingRound !== null && (
          <p className="flex items-center gap-2 text-xs text-muted-foreground">
            <LoaderCircle className="size-3.5 animate-spin" aria-hidden /> Checking the project for errors…
          </p>
        )}
        {message.check !== null && message.checkingRound === null && running && (
          <p className="text-xs text-muted-foreground">{checkSummary(message.check)}</p>
        )}
        <Outcome chat={chat} message={message} />
      </div>
    </article>
  );
});

const TASK_STATE_WORDS = { pending: 'Pending', running: 'Running', done: 'Done', failed: 'Failed' } as const;

function TaskIcon({ state }: { state: TaskProgress['state'] }) {
  if (state === 'running') return <LoaderCircle className="size-3.5 shrink-0 animate-spin text-brand" aria-hidden />;
  if (state === 'done') return <CircleCheck className="size-3.5 shrink-0 text-success" aria-hidden />;
  if (state === 'failed') return <CircleX className="size-3.5 shrink-0 text-destructive" aria-hidden />;
  return <CircleDashed className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />;
}

const TaskList = observer(function TaskList({ tasks, label = 'Tasks' }: { tasks: readonly TaskProgress[]; label?: string }) {
  return (
    <ol aria-label={label} className="grid grid-cols-1 gap-1">
      {tasks.map((task) => (
        <li key={task.id} className="flex min-w-0 items-center gap-2 text-sm">
          <TaskIcon state={task.state} />
          <span className={cn('truncate', task.state === 'pending' && 'text-muted-foreground')}>{task.title}</span>
          <span className="sr-only">: {TASK_STATE_WORDS[task.state]}</span>
        </li>
      ))}
    </ol>
  );
});

const PlanCard = observer(function PlanCard({ chat, message }: { chat: ChatVm; message: AssistantMessage }) {
  const headingId = useId();
  const plan = message.plan;
  if (plan === null) return null;
  const awaiting = message.status === 'awaiting';
  const cost = planCost(message);
  return (
    <section aria-labelledby={headingId} className={cn('grid grid-cols-1 gap-2.5 rounded-xl border p-3', awaiting ? 'border-brand/40 bg-brand-soft/40' : 'border-border')}>
      <div className="flex items-center gap-2">
        <ListChecks className="size-4 text-muted-foreground" aria-hidden />
        <h3 id={headingId} className="text-sm font-semibold">
          Plan
        </h3>
        <span className="text-xs text-muted-foreground">
          {plan.tasks.length} tasks · {plan.kind === 'build' ? 'new app' : 'changes'}
        </span>
        <Badge tone={awaiting ? 'brand' : 'outline'} className="ml-auto">
          Uses {cost} {creditsWord(cost)}
        </Badge>
      </div>
      <TaskList tasks={message.tasks} label="Plan tasks" />
      {awaiting && (
        <>
          {chat.planWarning !== null && (
            <p role="alert" className="flex items-start gap-1.5 text-sm font-medium text-warning">
              <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
              <span>{chat.planWarning}</span>
            </p>
          )}
          <p className="text-xs text-muted-foreground">
            Each task uses one credit when it runs. {chat.credits.leftText !== null && <>You have {chat.credits.leftText.toLowerCase()}.</>}
          </p>
          {message.planError !== null && <p className="text-xs text-destructive">{message.planError}</p>}
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="brand" onClick={() => void chat.acceptPlan()} disabled={chat.runningId !== null}>
              {chat.acceptLabel}
            </Button>
            <Button size="sm" variant="outline" loading={chat.cancelling} onClick={() => void chat.cancelPlan()}>
              Cancel plan
            </Button>
          </div>
        </>
      )}
    </section>
  );
});

const OPERATION_WORDS = {
  write_file: 'Wrote',
  edit_file: 'Edited',
  delete_file: 'Deleted',
  rename_file: 'Renamed',
  add_dependency: 'Added package',
  run_command: 'Ran a command',
} as const;

const Operations = observer(function Operations({ message }: { message: AssistantMessage }) {
  const count = message.operations.length;
  return (
    <details className="group rounded-lg border border-border text-xs">
      <summary className="cursor-pointer list-none px-2.5 py-1.5 text-muted-foreground outline-none select-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring">
        {count} {count === 1 ? 'change' : 'changes'} to your project
      </summary>
      <ul className="grid grid-cols-1 gap-0.5 border-t border-border px-2.5 py-1.5">
        {message.operations.map((operation, index) => (
          <li key={index} className="flex min-w-0 gap-1.5">
            <span className="shrink-0 text-muted-foreground">{OPERATION_WORDS[operation.type]}</span>
            {operation.path && <code className="truncate font-mono">{operation.path}</code>}
          </li>
        ))}
      </ul>
    </details>
  );
});

const Outcome = observer(function Outcome({ chat, message }: { chat: ChatVm; message: AssistantMessage }) {
  const text = outcomeText(message);
  if (text === null) return null;
  const tone =
    message.status === 'kept' ? 'text-success' : message.status === 'reverted' ? 'text-warning' : message.status === 'failed' ? 'text-destructive' : 'text-muted-foreground';
  const Icon =
    message.status === 'kept' ? CircleCheck : message.status === 'reverted' ? Undo2 : message.status === 'failed' ? CircleX : message.status === 'declined' ? Info : CircleDashed;
  return (
    <div className="grid grid-cols-1 gap-1.5">
      <p className={cn('flex items-start gap-1.5 text-sm font-medium', tone)}>
        <Icon className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span className="min-w-0 break-words">{text}</span>
      </p>
      {message.status === 'kept' && message.commitHash !== null && (
        <button
          type="button"
          onClick={chat.showVersions}
          className="inline-flex w-fit items-center gap-1.5 rounded-md text-xs text-muted-foreground underline-offset-4 outline-none hover:text-foreground hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          <GitCommitHorizontal className="size-3.5" aria-hidden />
          View version <span className="font-mono">{shortHash(message.commitHash)}</span>
        </button>
      )}
    </div>
  );
});

/** Stop: shown while a turn runs, once the server has named it. */
const StopButton = observer(function StopButton({ chat }: { chat: ChatVm }) {
  if (chat.runningId === null || !(chat.canStop || chat.stopping)) return null;
  return (
    <Button size="sm" variant="outline" className="h-7 px-2 text-xs" loading={chat.stopping} onClick={() => void chat.stop()}>
      <Square className="size-3" aria-hidden />
      Stop
    </Button>
  );
});

// ── Status line and composer ───────────────────────────────────────────────────────────────

/** SPEC §2/§4: the AI phase's words and dots; present (and empty) while idle. */
export const AssistantStatus = observer(function AssistantStatus({ chat }: { chat: ChatVm }) {
  const status = chat.status;
  return (
    <p role="status" aria-label="Assistant status" className={cn('flex items-center gap-2 text-xs font-medium text-brand', status.working ? 'min-h-5' : '-mb-2 min-h-0')}>
      {status.working && status.label !== null && (
        <>
          <Sparkles className="size-3.5 shrink-0 animate-pulse" aria-hidden />
          <span>
            {status.label}
            <span className="inline-block w-4 text-left">{status.dots}</span>
          </span>
        </>
      )}
    </p>
  );
});

/** The element picked in the preview: its tag and text, as the message will carry them. */
function SelectedElementChip({ element }: { element: SelectedElement }) {
  return (
    <p aria-label="Selected element" title={element.selector || undefined} className="inline-flex max-w-full min-w-0 items-center gap-1.5 rounded-md border border-border bg-muted px-2 py-0.5 text-xs text-muted-foreground">
      <MousePointerClick className="size-3.5 shrink-0" aria-hidden />
      <code className="shrink-0 font-mono text-foreground">&lt;{element.tag}&gt;</code>
      {element.text !== '' && <span className="truncate">{element.text}</span>}
    </p>
  );
}

const Composer = observer(function Composer({ chat }: { chat: ChatVm }) {
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    chat.send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      chat.send();
    }
  };
  const credits = chat.credits;
  return (
    <div className="grid shrink-0 grid-cols-1 gap-2 border-t border-border bg-background p-2 md:p-3">
      <div className="flex items-center gap-2">
        <div className="min-w-0 flex-1">
          <AssistantStatus chat={chat} />
        </div>
        <StopButton chat={chat} />
      </div>
      <QueuedMessages chat={chat} />
      {chat.selectedElement !== null && (
        <div className="flex items-center gap-1">
          <SelectedElementChip element={chat.selectedElement} />
          <Tooltip content="Not about this element">
            <button
              type="button"
              aria-label="Clear the selected element"
              onClick={chat.clearSelectedElement}
              className="inline-flex size-6 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
            >
              <X className="size-3.5" aria-hidden />
            </button>
          </Tooltip>
        </div>
      )}
      <PendingFilesList chat={chat} />
      <form onSubmit={onSubmit} {...fileDropHandlers(chat)} className="grid grid-cols-1 gap-2 rounded-xl border border-input bg-background p-2 shadow-xs focus-within:ring-2 focus-within:ring-ring/40 dark:bg-input/20">
        <textarea
          aria-label="Message the assistant"
          value={chat.input}
          readOnly={chat.enhancing}
          rows={1}
          maxLength={MAX_MESSAGE_LENGTH}
          placeholder={chat.busy ? 'Queued until the assistant is done…' : 'Describe what to build or change…'}
          onChange={(event) => chat.setInput(event.target.value)}
          onKeyDown={onKeyDown}
          className="max-h-40 min-h-9 w-full resize-none bg-transparent px-1.5 py-1 text-sm outline-none placeholder:text-muted-foreground md:min-h-14"
        />
        <div className="flex items-center gap-2">
          <AutoRunSwitch chat={chat} />
          <AttachButton chat={chat} />
          <Tooltip content="Enhance prompt">
            <button
              type="button"
              aria-label="Enhance prompt"
              onClick={() => void chat.enhance()}
              disabled={chat.input.trim() === '' || chat.enhancing}
              className="ml-auto inline-flex size-8 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none disabled:opacity-50"
            >
              {chat.enhancing ? <LoaderCircle className="size-4 animate-spin" aria-hidden /> : <WandSparkles className="size-4" aria-hidden />}
            </button>
          </Tooltip>
          <Button type="submit" size="icon-sm" variant="brand" aria-label="Send" disabled={!chat.canSend}>
            <ArrowUp aria-hidden />
          </Button>
        </div>
      </form>
      <p className="flex flex-wrap items-center gap-x-1.5 text-xs text-muted-foreground">
        <span>{chat.costText}</span>
        {credits.leftText !== null && (
          <>
            <span aria-hidden>·</span>
            <span className={cn(credits.exhausted && 'font-medium text-destructive')}>{credits.leftText}</span>
          </>
        )}
      </p>
    </div>
  );
});

const AutoRunSwitch = observer(function AutoRunSwitch({ chat }: { chat: ChatVm }) {
  const on = chat.autoRun;
  return (
    <Tooltip content={on ? 'Plans run at once' : 'Plans of several tasks wait for Run plan'}>
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-label="Auto-run plans"
        onClick={chat.toggleAutoRun}
        className="inline-flex items-center gap-2 rounded-md px-1 py-1 text-xs text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
      >
        <span aria-hidden className={cn('relative inline-flex h-4 w-7 shrink-0 rounded-full transition-colors', on ? 'bg-brand' : 'bg-input')}>
          <span className={cn('absolute top-0.5 size-3 rounded-full bg-background shadow-sm transition-[left]', on ? 'left-3.5' : 'left-0.5')} />
        </span>
        Auto-run
      </button>
    </Tooltip>
  );
});

const QueuedMessages = observer(function QueuedMessages({ chat }: { chat: ChatVm }) {
  if (chat.queue.length === 0) return null;
  return (
    <div className="grid grid-cols-1 gap-1">
      <p className="text-xs text-muted-foreground">
        {chat.paused
          ? 'Waiting: send a message again when you have credits.'
          : chat.pendingPlan !== null
            ? 'Waiting for you to run or cancel the plan.'
            : 'Sent in order when the assistant is done.'}
      </p>
      <ul aria-label="Queued messages" className="grid max-h-28 grid-cols-1 gap-1 overflow-y-auto">
        {chat.queue.map((item) => (
          <li key={item.id} className="flex items-center gap-2 rounded-lg border border-dashed border-border px-2.5 py-1.5 text-sm">
            <span className="min-w-0 flex-1 truncate" title={item.text}>
              {item.text}
            </span>
            <button
              type="button"
              aria-label="Remove queued message"
              onClick={() => chat.removeQueued(item.id)}
              className="inline-flex size-6 shrink-0 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
            >
              <X className="size-3.5" aria-hidden />
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
});

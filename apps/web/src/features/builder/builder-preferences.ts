// SPEC §9 stored preferences of the builder: chat tab, chat width, sidebar position and visibility.
import { inject, injectable } from 'inversify';
import { makeAutoObservable } from 'mobx';
import {
  type BuilderPreferences,
  type BuilderPreferencesStore,
  type ChatTab,
  type KeyValueStorage,
  type SidebarPosition,
  STORAGE_KEYS,
  TYPES,
} from '../../app/ports';

/** SPEC §2: sidebar on the right and visible, chat width 400, tab1. */
export const DEFAULT_BUILDER_PREFERENCES: BuilderPreferences = Object.freeze({
  sidebarPosition: 'right',
  sidebarVisible: true,
  chatTab: 'tab1',
  chatWidth: 400,
});
export const MIN_CHAT_WIDTH = 300;
export const MAX_CHAT_WIDTH = 720;

export function clampChatWidth(width: number): number {
  if (!Number.isFinite(width)) return DEFAULT_BUILDER_PREFERENCES.chatWidth;
  return Math.round(Math.min(MAX_CHAT_WIDTH, Math.max(MIN_CHAT_WIDTH, width)));
}

/** Reads stored preferences; anything missing or malformed falls back to its default. */
export function parseBuilderPreferences(raw: string | null): BuilderPreferences {
  let value: Record<string, unknown> = {};
  try {
    const parsed: unknown = raw === null ? {} : JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null) value = parsed as Record<string, unknown>;
  } catch {
    value = {};
  }
  const d = DEFAULT_BUILDER_PREFERENCES;
  return {
    sidebarPosition: value['sidebarPosition'] === 'left' || value['sidebarPosition'] === 'right' ? value['sidebarPosition'] : d.sidebarPosition,
    sidebarVisible: typeof value['sidebarVisible'] === 'boolean' ? value['sidebarVisible'] : d.sidebarVisible,
    chatTab: value['chatTab'] === 'tab1' || value['chatTab'] === 'tab2' ? value['chatTab'] : d.chatTab,
    chatWidth: typeof value['chatWidth'] === 'number' ? clampChatWidth(value['chatWidth']) : d.chatWidth,
  };
}

/** BuilderPreferencesStore on the key-value storage (local storage in the browser). */
@injectable()
export class StoredBuilderPreferences implements BuilderPreferencesStore {
  constructor(@inject(TYPES.Storage) private readonly storage: KeyValueStorage) {}

  load(): BuilderPreferences {
    return parseBuilderPreferences(this.storage.get(STORAGE_KEYS.builderPreferences));
  }

  save(preferences: BuilderPreferences): void {
    this.storage.set(STORAGE_KEYS.builderPreferences, JSON.stringify(preferences));
  }
}

/** The builder's layout preferences as observable state; every change is stored. */
export class BuilderPreferencesVm {
  sidebarPosition: SidebarPosition;
  sidebarVisible: boolean;
  chatTab: ChatTab;
  chatWidth: number;

  constructor(private readonly store: BuilderPreferencesStore) {
    const loaded = store.load();
    this.sidebarPosition = loaded.sidebarPosition;
    this.sidebarVisible = loaded.sidebarVisible;
    this.chatTab = loaded.chatTab;
    this.chatWidth = loaded.chatWidth;
    makeAutoObservable<BuilderPreferencesVm, 'store'>(this, { store: false }, { autoBind: true });
  }

  toggleSidebar(): void {
    this.sidebarVisible = !this.sidebarVisible;
    this.persist();
  }

  setSidebarVisible(visible: boolean): void {
    this.sidebarVisible = visible;
    this.persist();
  }

  setSidebarPosition(position: SidebarPosition): void {
    this.sidebarPosition = position;
    this.persist();
  }

  moveSidebar(): void {
    this.setSidebarPosition(this.sidebarPosition === 'right' ? 'left' : 'right');
  }

  setChatTab(tab: ChatTab): void {
    this.chatTab = tab;
    this.persist();
  }

  /** While dragging: the width follows the pointer; `commitChatWidth` stores it. */
  resizeChatWidth(width: number): void {
    this.chatWidth = clampChatWidth(width);
  }

  commitChatWidth(): void {
    this.persist();
  }

  /** Keyboard resizing (arrow keys on the handle): changes and stores at once. */
  setChatWidth(width: number): void {
    this.chatWidth = clampChatWidth(width);
    this.persist();
  }

  private persist(): void {
    this.store.save({
      sidebarPosition: this.sidebarPosition,
      sidebarVisible: this.sidebarVisible,
      chatTab: this.chatTab,
      chatWidth: this.chatWidth,
    });
  }
}

import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { STORAGE_KEYS } from '../../app/ports';
import { MemoryStorage } from '../../testing/ui-fakes';
import {
  BuilderPreferencesVm,
  DEFAULT_BUILDER_PREFERENCES,
  MAX_CHAT_WIDTH,
  MIN_CHAT_WIDTH,
  StoredBuilderPreferences,
  parseBuilderPreferences,
} from './builder-preferences';

describe('builder preferences', () => {
  it('defaults to a visible sidebar on the right, chat tab1, 400 px (SPEC §2)', () => {
    expect(parseBuilderPreferences(null)).toEqual({ sidebarPosition: 'right', sidebarVisible: true, chatTab: 'tab1', chatWidth: 400 });
    expect(parseBuilderPreferences('not json')).toEqual(DEFAULT_BUILDER_PREFERENCES);
    expect(parseBuilderPreferences('{"sidebarPosition":"top","chatTab":"tab3","chatWidth":"wide","sidebarVisible":1}')).toEqual(DEFAULT_BUILDER_PREFERENCES);
  });

  it('clamps a stored width', () => {
    expect(parseBuilderPreferences('{"chatWidth":5}').chatWidth).toBe(MIN_CHAT_WIDTH);
    expect(parseBuilderPreferences('{"chatWidth":5000}').chatWidth).toBe(MAX_CHAT_WIDTH);
  });

  it('remembers every change in local storage, and a new visit reads it back', () => {
    const storage = new MemoryStorage();
    const vm = new BuilderPreferencesVm(new StoredBuilderPreferences(storage));
    vm.moveSidebar();
    vm.toggleSidebar();
    vm.setChatTab('tab2');
    vm.resizeChatWidth(512.4);
    vm.commitChatWidth();

    expect(JSON.parse(storage.get(STORAGE_KEYS.builderPreferences) ?? '')).toEqual({
      sidebarPosition: 'left',
      sidebarVisible: false,
      chatTab: 'tab2',
      chatWidth: 512,
    });
    const again = new BuilderPreferencesVm(new StoredBuilderPreferences(storage));
    expect([again.sidebarPosition, again.sidebarVisible, again.chatTab, again.chatWidth]).toEqual(['left', false, 'tab2', 512]);
  });

  it('does not store while dragging, only when the drag ends', () => {
    const storage = new MemoryStorage();
    const vm = new BuilderPreferencesVm(new StoredBuilderPreferences(storage));
    vm.resizeChatWidth(450);
    expect(storage.get(STORAGE_KEYS.builderPreferences)).toBeNull();
    vm.setChatWidth(9999);
    expect(vm.chatWidth).toBe(MAX_CHAT_WIDTH);
    expect(storage.get(STORAGE_KEYS.builderPreferences)).toContain(`"chatWidth":${MAX_CHAT_WIDTH}`);
  });
});

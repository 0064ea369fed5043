-- highlight-ls for Neovim: attaches the server to normal buffers and draws every highlight with
-- extmarks.
--
-- The server sends `highlight/publishDecorations` with a table of styles and a flat list of
-- single-line ranges (line, startCharacter, endCharacter, styleIndex). We ask for byte columns
-- (`positionEncoding = "utf-8"`), which is what extmarks use, so no conversion is needed in
-- the common case. Each distinct style gets a highlight group of its own (`HighlightLs<Rule>`),
-- and every range becomes one extmark in the `highlight-ls` namespace. A whole payload for a
-- buffer replaces all of that buffer's extmarks; an empty `ranges` clears them.
--
-- We also ask for deltas (`delta = true`): after an edit the server sends only the lines that
-- changed, and the plugin redraws those lines alone, so an edit in a long file costs what it
-- changed. The extmarks of every other line moved with the text. A delta is drawn only over the
-- payload it names and for the buffer's current version; otherwise the plugin asks for the
-- whole set (`highlight/decorations`) once a payload for the current version arrives.
--
-- The built-in styles follow the colour scheme (their groups link to `Todo` and `Diagnostic*`);
-- a style the user wrote in .highlights.json or settings is drawn exactly.
--
-- Gutter signs and whole lines come once per line in `lines` (line, then the style index of
-- its gutter sign and its whole-line background, -1 for none). Such a line gets one more
-- extmark at its start: `sign_text` with `sign_hl_group` (`HighlightLsSign<Rule>`, the sign's
-- colour) and `line_hl_group` (`HighlightLsLine<Rule>`, the line's background). Neovim has no
-- overview ruler, so a style's `overviewRuler` is not drawn.
--
-- Works on Neovim 0.7 and later:
--   0.11+      lsp/highlight-ls.lua, so vim.lsp.enable("highlight-ls") alone starts it; setup()
--              calls vim.lsp.config + vim.lsp.enable. Buffers without a filetype (which never
--              see FileType) are attached from a BufReadPost/BufNewFile autocommand.
--   0.8-0.10   vim.lsp.start from an autocommand, after setup()
--   0.7        vim.lsp.start_client + vim.lsp.buf_attach_client, after setup()
-- Semantic tokens (0.9+) arrive as `@lsp.type.<rule>` groups, linked to defaults below.
--
-- Requiring this module does nothing but define functions and one namespace.

local M = {}

local api = vim.api
local uv = vim.uv or vim.loop

--- The namespace of every extmark this plugin places.
M.namespace = api.nvim_create_namespace("highlight-ls")

--- The notification and request the server offers for decorations.
M.decorations_method = "highlight/publishDecorations"
M.decorations_request = "highlight/decorations"

local defaults = {
  -- The command that starts the server.
  cmd = { "highlight-ls" },
  -- The client's name (and the vim.lsp.config name on 0.11+).
  name = "highlight-ls",
  -- Draw styles with extmarks (the only highlighting before Neovim 0.9).
  decorations = true,
  -- Semantic tokens (0.9+). `nil` means: on only when decorations are off, so the same
  -- text is not highlighted twice.
  semantic_tokens = nil,
  -- false (the default) draws every style as the server sends it: TODO is the amber label that
  -- `highlight-ls print` shows. true links the built-in styles to the colour scheme's groups
  -- (Todo, Diagnostic*) instead. Styles of your own are always drawn exactly.
  follow_theme = false,
  -- Files that mark the workspace root, searched upwards from the buffer's file. Without one,
  -- the root is the current directory if the file is inside it, else the file's directory.
  root_markers = { ".highlights.json", ".git" },
  -- The `highlight` settings section (rules, styles, defaults), answered to
  -- workspace/configuration.
  settings = nil,
  -- Extra initializationOptions (merged with the decorations option).
  init_options = nil,
  -- Extmark priority; above treesitter (100) and semantic tokens (125).
  priority = 150,
  -- Passed through to the client.
  on_attach = nil,
  capabilities = nil,
  -- The workspace's counts per rule for status lines (`counts()`, `counts_text()`): asked for
  -- (`highlight/counts`) when the server attaches, after a write, and `debounce_ms` after the
  -- last edit. `separator` joins the rules in `counts_text()`. setup() merges a table given
  -- over this one; a bare `true` or `false` stands for `{ enabled = ... }`.
  counts = { enabled = true, debounce_ms = 500, separator = " | " },
}

M.options = vim.deepcopy(defaults)

--- How each server process ended: { client_id, code, signal }, oldest first.
M.exits = {}

local function has(feature)
  return vim.fn.has(feature) == 1
end

local function resolve_buffer(bufnr)
  if bufnr == nil or bufnr == 0 then
    return api.nvim_get_current_buf()
  end
  return bufnr
end

-- Colours ------------------------------------------------------------------------------------

--- Parses `#rrggbbaa` (or `#rrggbb`) into red, green, blue and alpha (0-255); nil otherwise.
function M.parse_color(text)
  if type(text) ~= "string" then
    return nil
  end
  local r, g, b, a = text:match("^#(%x%x)(%x%x)(%x%x)(%x%x)$")
  if not r then
    r, g, b = text:match("^#(%x%x)(%x%x)(%x%x)$")
    a = "ff"
  end
  if not r then
    return nil
  end
  return tonumber(r, 16), tonumber(g, 16), tonumber(b, 16), tonumber(a, 16)
end

-- Normal's background as a 0xrrggbb number, or nil. nvim_get_hl (0.9+) replaces the
-- deprecated nvim_get_hl_by_name.
local function normal_background()
  if api.nvim_get_hl then
    local ok, normal = pcall(api.nvim_get_hl, 0, { name = "Normal", link = false })
    if ok and type(normal) == "table" and type(normal.bg) == "number" then
      return normal.bg
    end
    return nil
  end
  local ok, normal = pcall(api.nvim_get_hl_by_name, "Normal", true)
  if ok and type(normal) == "table" and type(normal.background) == "number" then
    return normal.background
  end
  return nil
end

-- The colour translucent colours are blended over: Normal's background when it has one,
-- otherwise black or white after 'background'.
local function backdrop()
  local value = normal_background()
  if value then
    return math.floor(value / 65536) % 256, math.floor(value / 256) % 256, value % 256
  end
  if vim.o.background == "light" then
    return 255, 255, 255
  end
  return 0, 0, 0
end

--- Turns a server colour into a `#rrggbb` Neovim can show, blending translucent colours over
--- the backdrop (terminals have no alpha); nil when the colour is absent, invalid or invisible.
function M.gui_color(text)
  local r, g, b, a = M.parse_color(text)
  if not r or a == 0 then
    return nil
  end
  if a < 255 then
    local br, bg, bb = backdrop()
    local function mix(front, back)
      return math.floor((front * a + back * (255 - a)) / 255 + 0.5)
    end
    r, g, b = mix(r, br), mix(g, bg), mix(b, bb)
  end
  return string.format("#%02x%02x%02x", r, g, b)
end

-- The nearest entry of the xterm 256-colour palette, for terminals without 'termguicolors'.
local cube_levels = { 0, 95, 135, 175, 215, 255 }
function M.xterm256(hex)
  local r, g, b = M.parse_color(hex)
  if not r then
    return nil
  end
  local function nearest_level(value)
    local best, best_distance = 1, math.huge
    for index, level in ipairs(cube_levels) do
      local distance = math.abs(level - value)
      if distance < best_distance then
        best, best_distance = index, distance
      end
    end
    return best - 1, cube_levels[best]
  end
  local ri, rv = nearest_level(r)
  local gi, gv = nearest_level(g)
  local bi, bv = nearest_level(b)
  local cube_index = 16 + 36 * ri + 6 * gi + bi
  local cube_distance = (r - rv) ^ 2 + (g - gv) ^ 2 + (b - bv) ^ 2
  local grey_step = math.max(0, math.min(23, math.floor(((r + g + b) / 3 - 8) / 10 + 0.5)))
  local grey = 8 + 10 * grey_step
  local grey_distance = (r - grey) ^ 2 + (g - grey) ^ 2 + (b - grey) ^ 2
  if grey_distance < cube_distance then
    return 232 + grey_step
  end
  return cube_index
end

-- Styles and highlight groups ----------------------------------------------------------------

--- Turns a decoration style into the attributes of nvim_set_hl.
---
--- Borders and rounded corners cannot be drawn in a terminal grid: the border colour becomes
--- the special (underline) colour, and a style with a border but no background is underlined
--- so that it still stands out.
function M.highlight_attributes(style)
  local attributes = {}
  local fg = M.gui_color(style.color)
  local bg = M.gui_color(style.backgroundColor)
  local border = M.gui_color(style.borderColor)
  if fg then
    attributes.fg = fg
    attributes.ctermfg = M.xterm256(fg)
  end
  if bg then
    attributes.bg = bg
    attributes.ctermbg = M.xterm256(bg)
  end
  if border then
    attributes.sp = border
  end
  local cterm = {}
  for _, key in ipairs({ "bold", "italic", "underline", "strikethrough" }) do
    if style[key] == true then
      attributes[key] = true
      cterm[key] = true
    end
  end
  if border and not bg and not attributes.underline then
    attributes.underline = true
    cterm.underline = true
  end
  if next(cterm) then
    attributes.cterm = cterm
  end
  return attributes
end

-- A highlight group name part from a rule name: `ticket-id` -> `TicketId`.
local function camel(rule)
  local parts = {}
  for word in tostring(rule):gmatch("[%w]+") do
    parts[#parts + 1] = word:sub(1, 1):upper() .. word:sub(2)
  end
  local name = table.concat(parts)
  if name == "" then
    name = "Highlight"
  end
  return name
end

-- The style keys drawn per line (by their own extmarks), not by a range's highlight group.
local line_indicator_keys = { gutter = true, wholeLine = true, overviewRuler = true }

-- A style's attributes as one string, `rule` left out unless asked for. Line indicators are left
-- out: they do not change the range's highlight group.
local function style_key(style, with_rule)
  local keys = {}
  for key, value in pairs(style) do
    if (with_rule or key ~= "rule") and not line_indicator_keys[key] then
      keys[#keys + 1] = key .. "=" .. tostring(value)
    end
  end
  table.sort(keys)
  return table.concat(keys, ";")
end

-- The server's built-in styles, as it sends them, and the looks of the built-in rules.
local builtin_looks = {
  error = { color = "#ffffffff", backgroundColor = "#d32f2fff", bold = true, rounded = true },
  warning = { color = "#1a1a1aff", backgroundColor = "#f9a825ff", bold = true, rounded = true },
  caution = { color = "#ffffffff", backgroundColor = "#ef6c00ff", bold = true, rounded = true },
  info = { color = "#ffffffff", backgroundColor = "#1976d2ff", bold = true, rounded = true },
  hint = { color = "#ffffffff", backgroundColor = "#2e7d32ff", bold = true, rounded = true },
  deprecated = { color = "#9e9e9eff", strikethrough = true },
  highlight = { backgroundColor = "#8080804d" },
}
local look_of_rule = {
  fixme = "error",
  todo = "warning",
  hack = "caution",
  note = "info",
  review = "hint",
  deprecated = "deprecated",
  highlight = "highlight",
}

-- The colour scheme group each built-in look follows; the first one that exists is used.
local theme_groups_of_look = {
  error = { "DiagnosticError", "ErrorMsg" },
  warning = { "DiagnosticWarn", "WarningMsg" },
  caution = { "DiagnosticWarn", "WarningMsg" },
  info = { "DiagnosticInfo", "Identifier" },
  hint = { "DiagnosticHint", "Comment" },
  deprecated = { "DiagnosticDeprecated", "Comment" },
  highlight = { "Visual" },
}
-- TODO has a group of its own in every colour scheme.
local theme_groups_of_rule = { todo = { "Todo" } }

local look_by_key = {}
for look, style in pairs(builtin_looks) do
  look_by_key[style_key(style)] = look
end

local function first_existing(groups)
  for _, group in ipairs(groups) do
    if vim.fn.hlexists(group) == 1 then
      return group
    end
  end
  return groups[#groups]
end

--- The colour scheme group a style follows: the style must be one of the server's built-in
--- ones and `follow_theme` on; nil for a style of the user's own (drawn exactly).
function M.theme_group(style)
  if not M.options.follow_theme or type(style) ~= "table" then
    return nil
  end
  local look = look_by_key[style_key(style)]
  if not look then
    return nil
  end
  return first_existing(theme_groups_of_rule[style.rule] or theme_groups_of_look[look])
end

-- The groups defined so far: key (rule and attributes) -> group name, and name -> style.
local group_by_key = {}
local style_by_group = {}
local groups_by_rule = {}

local function define_group(name, style)
  local theme = M.theme_group(style)
  if theme then
    api.nvim_set_hl(0, name, { link = theme })
  else
    api.nvim_set_hl(0, name, M.highlight_attributes(style))
  end
end

--- The highlight group drawing a decoration style, defined on first use.
---
--- The first style seen for a rule is `HighlightLs<Rule>`; another style for the same rule
--- (a different configuration in another workspace folder) gets `HighlightLs<Rule>2`, and so on.
function M.group_for_style(style)
  local key = style_key(style, true)
  local known = group_by_key[key]
  if known then
    return known
  end
  local base = "HighlightLs" .. camel(style.rule or "highlight")
  local count = (groups_by_rule[base] or 0) + 1
  groups_by_rule[base] = count
  local name = count == 1 and base or (base .. count)
  group_by_key[key] = name
  style_by_group[name] = style
  define_group(name, style)
  return name
end

-- Defines `HighlightLsToken<Rule>` for every built-in rule and links `@lsp.type.<rule>` to
-- it, without overriding a colour scheme that already defines those groups.
local function define_semantic_token_groups()
  if not has("nvim-0.9") then
    return
  end
  for rule, look in pairs(look_of_rule) do
    local style = vim.deepcopy(builtin_looks[look])
    style.rule = rule
    local group = "HighlightLsToken" .. camel(rule)
    local theme = M.theme_group(style)
    if theme then
      api.nvim_set_hl(0, group, { link = theme })
    else
      api.nvim_set_hl(0, group, M.highlight_attributes(style))
    end
    api.nvim_set_hl(0, "@lsp.type." .. rule, { link = group, default = true })
  end
end

-- Line indicators: a group per rule and colour for signs (foreground) and whole lines (background).
local mark_group_by_key = {}
local mark_by_group = {}
local mark_groups_by_base = {}

local function define_mark_group(name, mark)
  local color = M.gui_color(mark.color)
  if not color then
    api.nvim_set_hl(0, name, {})
  elseif mark.kind == "Line" then
    api.nvim_set_hl(0, name, { bg = color, ctermbg = M.xterm256(color) })
  else
    api.nvim_set_hl(0, name, { fg = color, ctermfg = M.xterm256(color), bold = true, cterm = { bold = true } })
  end
end

--- The highlight group of a line indicator, defined on first use: `kind` is "Sign" (the sign's
--- colour as foreground) or "Line" (the whole line's background); `HighlightLs<Kind><Rule>`,
--- numbered like the range groups when one rule has several colours.
function M.mark_group(kind, rule, color)
  local key = kind .. ";" .. tostring(rule) .. ";" .. tostring(color)
  local known = mark_group_by_key[key]
  if known then
    return known
  end
  local base = "HighlightLs" .. kind .. camel(rule or "highlight")
  local count = (mark_groups_by_base[base] or 0) + 1
  mark_groups_by_base[base] = count
  local name = count == 1 and base or (base .. count)
  mark_group_by_key[key] = name
  mark_by_group[name] = { kind = kind, color = color }
  define_mark_group(name, mark_by_group[name])
  return name
end

-- A colour scheme change clears every group; define ours again.
local function redefine_groups()
  for name, style in pairs(style_by_group) do
    define_group(name, style)
  end
  for name, mark in pairs(mark_by_group) do
    define_mark_group(name, mark)
  end
  define_semantic_token_groups()
end

-- Clients ------------------------------------------------------------------------------------

--- The clients of this server attached to a buffer (every buffer when bufnr is nil).
function M.clients(bufnr)
  local found = {}
  local list
  if vim.lsp.get_clients then
    list = vim.lsp.get_clients({ bufnr = bufnr, name = M.options.name })
  elseif bufnr then
    list = vim.lsp.buf_get_clients(bufnr)
  else
    list = vim.lsp.get_active_clients()
  end
  for _, client in pairs(list or {}) do
    if client.name == M.options.name then
      found[#found + 1] = client
    end
  end
  return found
end

-- Calls a client method with the calling convention of the running Neovim (`client:request`
-- on 0.11+, where `client.request` is deprecated).
local function client_request(client, method, params, handler, bufnr)
  if has("nvim-0.11") then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function supports_semantic_tokens(client)
  return has("nvim-0.9")
    and vim.lsp.semantic_tokens ~= nil
    and client.server_capabilities ~= nil
    and client.server_capabilities.semanticTokensProvider ~= nil
end

-- What each buffer's extmarks stand for -----------------------------------------------------
--
-- After an edit the server sends only the lines that changed (a delta) on top of the payload it
-- sent before; every other line keeps its extmarks, which moved with the text. A delta may only
-- be drawn over the very payload it names, so each buffer remembers the one it drew last:
--   client_id     the client that sent it
--   result_id     its resultId; nil when the extmarks stand for no known payload (nothing drawn
--                 yet, a payload dropped, the namespace cleared), and then no delta is drawn
--   styles        its style table and what was derived from it: groups (0-based style index to
--   groups        highlight group), style_count (how many styles have their group) and
--   style_count   mark_options (the options of line-indicator extmarks by sign and line style). A
--   mark_options  delta's table keeps every earlier index, so only the styles appended are new.
--   requesting    the client whose highlight/decorations request (the whole set) is on its way
local decoration_states = {}

local function decoration_state(bufnr)
  local state = decoration_states[bufnr]
  if not state then
    -- A buffer seen for the first time is when the states of buffers wiped out since go: their
    -- numbers are never given out again.
    for known in pairs(decoration_states) do
      if not api.nvim_buf_is_valid(known) then
        decoration_states[known] = nil
      end
    end
    state = {}
    decoration_states[bufnr] = state
  end
  return state
end

-- Forgets what a buffer's extmarks stand for, after they were cleared or a payload was dropped:
-- no delta can be drawn over them any more, so the whole set is asked for instead.
local function forget_decorations(bufnr)
  local state = decoration_states[bufnr]
  if state then
    state.client_id, state.result_id = nil, nil
    state.styles, state.groups, state.style_count, state.mark_options = nil, nil, nil, nil
  end
end

-- Turning highlighting on and off ------------------------------------------------------------
--
-- `vim.g.highlight_ls_enabled` (default true) is the global switch; `vim.b.highlight_ls_enabled`,
-- when set, overrides it for one buffer. Both may be set by hand (say in an ftplugin) before a
-- buffer is drawn; enable()/disable()/toggle() also redraw.

--- Whether highlighting is on for a buffer (0 for the current one), or globally (nil).
function M.is_enabled(bufnr)
  if bufnr ~= nil then
    bufnr = resolve_buffer(bufnr)
    if api.nvim_buf_is_valid(bufnr) then
      local value = vim.b[bufnr].highlight_ls_enabled
      if value ~= nil then
        return value ~= false and value ~= 0
      end
    end
  end
  local global = vim.g.highlight_ls_enabled
  return global ~= false and global ~= 0
end

local function hide(bufnr)
  api.nvim_buf_clear_namespace(bufnr, M.namespace, 0, -1)
  forget_decorations(bufnr)
  for _, client in ipairs(M.clients(bufnr)) do
    if supports_semantic_tokens(client) then
      pcall(vim.lsp.semantic_tokens.stop, bufnr, client.id)
    end
  end
end

local function show(bufnr)
  for _, client in ipairs(M.clients(bufnr)) do
    if supports_semantic_tokens(client) then
      pcall(vim.lsp.semantic_tokens.start, bufnr, client.id)
    end
  end
  M.refresh(bufnr)
end

local function loaded_buffers()
  local list = {}
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(bufnr) then
      list[#list + 1] = bufnr
    end
  end
  return list
end

-- Sets the switch (a buffer's, or the global one, which also drops every buffer's own) and
-- redraws what changed.
local function set_enabled(bufnr, enabled)
  if bufnr ~= nil then
    bufnr = resolve_buffer(bufnr)
    local before = M.is_enabled(bufnr)
    vim.b[bufnr].highlight_ls_enabled = enabled
    if before ~= enabled then
      if enabled then
        show(bufnr)
      else
        hide(bufnr)
      end
    end
    return
  end
  local before = {}
  local buffers = loaded_buffers()
  for _, buffer in ipairs(buffers) do
    before[buffer] = M.is_enabled(buffer)
    vim.b[buffer].highlight_ls_enabled = nil
  end
  vim.g.highlight_ls_enabled = enabled
  for _, buffer in ipairs(buffers) do
    if before[buffer] ~= enabled then
      if enabled then
        show(buffer)
      else
        hide(buffer)
      end
    end
  end
end

--- Turns highlighting on for a buffer (0 for the current one), or everywhere (nil).
function M.enable(bufnr)
  set_enabled(bufnr, true)
end

--- Turns highlighting off for a buffer (0 for the current one), or everywhere (nil). The
--- server stays attached (diagnostics of rules with a severity still show), so turning it on
--- again is one request.
function M.disable(bufnr)
  set_enabled(bufnr, false)
end

--- Turns highlighting off where it is on and on where it is off: for a buffer (0 for the
--- current one), or everywhere (nil).
function M.toggle(bufnr)
  set_enabled(bufnr, not M.is_enabled(bufnr))
end

-- Decorations --------------------------------------------------------------------------------

local function buffer_for_uri(uri)
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(bufnr) and vim.uri_from_bufnr(bufnr) == uri then
      return bufnr
    end
  end
  return nil
end

-- The byte column of a column in another encoding, clamped to the line. 0.11 takes the
-- encoding by name (the old boolean form is deprecated there).
local new_byteindex = has("nvim-0.11")
local function byte_column(bufnr, line, column, encoding, line_cache)
  if encoding == "utf-8" then
    return column
  end
  local text = line_cache[line]
  if text == nil then
    text = api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1] or ""
    line_cache[line] = text
  end
  local ok, byte
  if new_byteindex then
    ok, byte = pcall(vim.str_byteindex, text, encoding, column, false)
  else
    ok, byte = pcall(vim.str_byteindex, text, column, encoding == "utf-16")
  end
  if ok and type(byte) == "number" then
    return math.min(byte, #text)
  end
  return #text
end

local function is_index(value)
  return type(value) == "number" and value >= 0 and value == math.floor(value)
end

-- The version the buffer had when its last change was sent (the LSP client counts with
-- changedtick); nil when unknown.
local function buffer_version(bufnr)
  local util = vim.lsp and vim.lsp.util
  local versions = util and util.buf_versions
  local version = versions and versions[bufnr]
  if type(version) == "number" then
    return version
  end
  return nil
end

--- The sign shown for a gutter mark without text of its own.
M.default_sign = "●"

-- The sign text of a gutter mark: its own when Neovim can show it (one or two cells, as the
-- server checks), else the default sign.
local function sign_text(gutter)
  local text = gutter.text
  if type(text) == "string" and text ~= "" and not text:find("[%c]") then
    local width = vim.fn.strdisplaywidth(text)
    if width >= 1 and width <= 2 then
      return text
    end
  end
  return M.default_sign
end

-- The extmark options of a line's marks, or nil when it has nothing Neovim draws. `styles`
-- is the payload's style list (0-based indices), `sign_style` and `line_style` indices or -1.
local function line_indicator_options(styles, sign_style, line_style, cache)
  local key = tostring(sign_style) .. ":" .. tostring(line_style)
  if cache[key] ~= nil then
    return cache[key]
  end
  local options = { priority = M.options.priority - 1, strict = false }
  local sign = is_index(sign_style) and styles[sign_style + 1]
  local gutter = type(sign) == "table" and type(sign.gutter) == "table" and sign.gutter or nil
  if gutter and M.gui_color(gutter.color) then
    options.sign_text = sign_text(gutter)
    options.sign_hl_group = M.mark_group("Sign", sign.rule, gutter.color)
  end
  local line = is_index(line_style) and styles[line_style + 1]
  local whole = type(line) == "table" and type(line.wholeLine) == "table" and line.wholeLine or nil
  if whole and M.gui_color(whole.backgroundColor) then
    options.line_hl_group = M.mark_group("Line", line.rule, whole.backgroundColor)
  end
  if not options.sign_text and not options.line_hl_group then
    options = false
  end
  cache[key] = options
  return options
end

-- The highlight group of every style not seen before in the buffer's style table: a whole
-- payload starts the table afresh, a delta appends to it.
local function extend_groups(state, styles)
  state.groups = state.groups or {}
  state.mark_options = state.mark_options or {}
  for index = (state.style_count or 0) + 1, #styles do
    local style = styles[index]
    if type(style) == "table" then
      state.groups[index - 1] = M.group_for_style(style)
    end
  end
  state.style_count = math.max(state.style_count or 0, #styles)
  state.styles = styles
end

-- Places the extmarks of `ranges` and `lines` that lie on lines first..<last (past the buffer's
-- end counts as its end). Entries elsewhere, malformed or with an unknown style are skipped.
local function draw(bufnr, state, ranges, lines, encoding, first, last)
  local line_count = api.nvim_buf_line_count(bufnr)
  if last > line_count then
    last = line_count
  end
  local groups = state.groups
  local line_cache = {}
  -- One options table for every extmark: a large file has tens of thousands of ranges.
  local mark = { priority = M.options.priority, strict = false }
  local set_extmark, namespace = api.nvim_buf_set_extmark, M.namespace
  for offset = 1, #ranges - 3, 4 do
    local line, start, finish, style_index = ranges[offset], ranges[offset + 1], ranges[offset + 2], ranges[offset + 3]
    if is_index(line) and is_index(start) and is_index(finish) and groups[style_index] and line >= first and line < last then
      local start_col = byte_column(bufnr, line, start, encoding, line_cache)
      local end_col = byte_column(bufnr, line, finish, encoding, line_cache)
      if end_col > start_col then
        mark.end_row, mark.end_col, mark.hl_group = line, end_col, groups[style_index]
        pcall(set_extmark, bufnr, namespace, line, start_col, mark)
      end
    end
  end
  for offset = 1, #lines - 2, 3 do
    local line = lines[offset]
    if is_index(line) and line >= first and line < last then
      local options = line_indicator_options(state.styles, lines[offset + 1], lines[offset + 2], state.mark_options)
      if options then
        pcall(set_extmark, bufnr, namespace, line, 0, options)
      end
    end
  end
end

-- Asks `client` for the whole set of a buffer's decorations and draws the answer. Without
-- `again`, nothing is asked while an earlier request for the buffer is on its way, so a run of
-- deltas that cannot be drawn costs one request.
local function request_decorations(bufnr, client, again)
  local state = decoration_state(bufnr)
  if not again and state.requesting and vim.lsp.get_client_by_id(state.requesting) then
    return
  end
  state.requesting = client.id
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
  local ok, sent = pcall(client_request, client, M.decorations_request, params, function(err, result)
    if decoration_state(bufnr).requesting == client.id then
      decoration_state(bufnr).requesting = nil
    end
    if not err and type(result) == "table" and api.nvim_buf_is_valid(bufnr) then
      M.apply_decorations(result, client.id)
    end
  end, bufnr)
  if not ok or not sent then
    state.requesting = nil
  end
end

-- A delta that cannot be drawn (`version`: the one it is for) leaves the extmarks standing for
-- no known payload. Once a payload for the buffer's current version arrives, the whole set for
-- that version is asked for; an older one means the buffer changed since, and the server's
-- payload for the change comes next.
local function after_dropped_delta(bufnr, client_id, version, current)
  forget_decorations(bufnr)
  if version ~= current then
    return
  end
  local client = client_id and vim.lsp.get_client_by_id(client_id) or M.clients(bufnr)[1]
  if client then
    request_decorations(bufnr, client, false)
  end
end

-- Draws a delta: what was drawn on lines startLine..<endLine goes, the delta's ranges and line
-- marks come in its place, and every other line keeps its extmarks.
local function apply_delta(bufnr, result, edit, client_id)
  local version = result.textDocument.version
  local current = buffer_version(bufnr)
  local first, last = edit.startLine, edit.endLine
  if not (is_index(first) and is_index(last) and last >= first) then
    after_dropped_delta(bufnr, client_id, version, current)
    return nil, "malformed edit"
  end
  if type(version) ~= "number" or version ~= current then
    after_dropped_delta(bufnr, client_id, version, current)
    return nil, "stale version " .. tostring(version) .. " ~= " .. tostring(current)
  end
  local state = decoration_state(bufnr)
  local previous = result.previousResultId
  if state.result_id == nil or previous ~= state.result_id or client_id ~= state.client_id then
    local drawn = tostring(state.result_id)
    after_dropped_delta(bufnr, client_id, version, current)
    return nil, "broken chain: the delta is on " .. tostring(previous) .. ", the buffer shows " .. drawn
  end
  if type(result.styles) == "table" then
    extend_groups(state, result.styles)
  end
  if last > first then
    api.nvim_buf_clear_namespace(bufnr, M.namespace, first, last)
  end
  local ranges = type(edit.ranges) == "table" and edit.ranges or {}
  local lines = type(edit.lines) == "table" and edit.lines or {}
  draw(bufnr, state, ranges, lines, result.positionEncoding or "utf-16", first, last)
  state.result_id = result.resultId
  return bufnr
end

--- Draws a `highlight/publishDecorations` payload, or the answer to `highlight/decorations`:
--- a whole payload replaces the buffer's extmarks, a delta (with `edit`) those of the lines it
--- covers. `client_id` is the client that sent it (a delta must come from the client whose
--- payload it builds on).
---
--- Returns the buffer drawn, or nil with a reason when the payload was ignored (unknown
--- document, stale version, a delta on another payload than the one drawn, malformed payload,
--- highlighting turned off).
function M.apply_decorations(result, client_id)
  if type(result) ~= "table" or type(result.textDocument) ~= "table" then
    return nil, "malformed payload"
  end
  local bufnr = buffer_for_uri(result.textDocument.uri)
  if not bufnr then
    return nil, "no buffer for " .. tostring(result.textDocument.uri)
  end
  if not M.is_enabled(bufnr) then
    api.nvim_buf_clear_namespace(bufnr, M.namespace, 0, -1)
    forget_decorations(bufnr)
    return nil, "disabled"
  end
  if type(result.edit) == "table" then
    return apply_delta(bufnr, result, result.edit, client_id)
  end
  local version = result.textDocument.version
  local current = buffer_version(bufnr)
  if type(version) == "number" and current and version < current then
    -- The buffer has changed since; the server sends the newer state after our didChange. A
    -- delta on this payload will follow, which cannot be drawn now.
    forget_decorations(bufnr)
    return nil, "stale version " .. version .. " < " .. current
  end
  forget_decorations(bufnr)
  local state = decoration_state(bufnr)
  extend_groups(state, type(result.styles) == "table" and result.styles or {})
  api.nvim_buf_clear_namespace(bufnr, M.namespace, 0, -1)
  local ranges = type(result.ranges) == "table" and result.ranges or {}
  local lines = type(result.lines) == "table" and result.lines or {}
  draw(bufnr, state, ranges, lines, result.positionEncoding or "utf-16", 0, math.huge)
  state.client_id, state.result_id = client_id, result.resultId
  return bufnr
end

--- The handler of `highlight/publishDecorations` (signature of Neovim 0.5.1+ handlers).
function M.on_publish_decorations(err, result, ctx, _config)
  if err then
    return
  end
  M.apply_decorations(result, type(ctx) == "table" and ctx.client_id or nil)
end

--- Removes every decoration from a buffer (0 for the current one) until the next update.
function M.clear(bufnr)
  bufnr = resolve_buffer(bufnr)
  api.nvim_buf_clear_namespace(bufnr, M.namespace, 0, -1)
  -- The next delta would draw only its own lines; the whole set is asked for instead.
  forget_decorations(bufnr)
end

--- Asks the server for a buffer's decorations and draws them (0 for the current buffer).
function M.refresh(bufnr)
  bufnr = resolve_buffer(bufnr)
  if not M.is_enabled(bufnr) then
    return
  end
  for _, client in ipairs(M.clients(bufnr)) do
    request_decorations(bufnr, client, true)
  end
end

-- Finding matches ----------------------------------------------------------------------------
--
-- jump_next/jump_prev and the location list work on what the buffer highlights: the server's
-- `highlight/matches` (every match with its rule and range), asked synchronously, which sends
-- any pending change first, so a jump right after typing lands on the new text. The quickfix
-- list asks `workspace/symbol`: the matches of the rules marked `list` in every file of the
-- workspace, with the rule filter `rule:` of the server for each rule asked for. Columns come
-- in the client's position encoding and become bytes against the buffer's line, or the file's
-- when no buffer holds it.

-- The longest a jump waits for the server, in milliseconds.
M.request_timeout_ms = 2000

local function request_sync(client, method, params, bufnr)
  if has("nvim-0.11") then
    return client:request_sync(method, params, M.request_timeout_ms, bufnr)
  end
  return client.request_sync(method, params, M.request_timeout_ms, bufnr)
end

local function notify(message, level)
  vim.notify("highlight-ls: " .. message, level or vim.log.levels.INFO)
end

-- A set of rule names from a list (nil or empty: every rule).
local function rule_set(rules)
  if type(rules) == "string" then
    rules = { rules }
  end
  if type(rules) ~= "table" or #rules == 0 then
    return nil
  end
  local set = {}
  for _, rule in ipairs(rules) do
    set[tostring(rule):lower()] = true
  end
  return set
end

local function is_position(value)
  return type(value) == "table" and is_index(value.line) and is_index(value.character)
end

--- The matches of a buffer (0 for the current one) as the server has them, in text order:
--- { rule, line, col, end_line, end_col } with zero-based lines and byte columns; `rules` keeps
--- only those rules. nil and a reason when the server is not attached or does not answer.
function M.buffer_matches(bufnr, rules)
  bufnr = resolve_buffer(bufnr)
  local client = M.clients(bufnr)[1]
  if not client then
    return nil, "not attached to this buffer"
  end
  local response, problem = request_sync(client, "highlight/matches", { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, bufnr)
  if not response or response.err or type(response.result) ~= "table" then
    return nil, "no answer from the server (" .. tostring(problem or (response and response.err and response.err.message)) .. ")"
  end
  local wanted = rule_set(rules)
  local encoding = client.offset_encoding or "utf-16"
  local line_cache = {}
  local matches = {}
  for _, match in ipairs(response.result) do
    local range = type(match) == "table" and match.range
    if type(range) == "table" and is_position(range.start) and is_position(range["end"])
      and (not wanted or wanted[tostring(match.rule):lower()]) then
      local start, finish = range.start, range["end"]
      matches[#matches + 1] = {
        rule = match.rule,
        line = start.line,
        col = byte_column(bufnr, start.line, start.character, encoding, line_cache),
        end_line = finish.line,
        end_col = byte_column(bufnr, finish.line, finish.character, encoding, line_cache),
      }
    end
  end
  return matches
end

local function before(line_a, col_a, line_b, col_b)
  return line_a < line_b or (line_a == line_b and col_a < col_b)
end

-- Moves the cursor `count` matches forward or back from where it is, wrapping at the ends.
local function jump(forward, opts)
  opts = opts or {}
  local bufnr = api.nvim_get_current_buf()
  local matches, problem = M.buffer_matches(bufnr, opts.rules)
  if not matches then
    notify(problem, vim.log.levels.WARN)
    return nil
  end
  if #matches == 0 then
    notify(opts.rules and "no matches of " .. table.concat(type(opts.rules) == "table" and opts.rules or { opts.rules }, ", ") or "no matches in this buffer")
    return nil
  end
  local count = tonumber(opts.count) or vim.v.count1
  if count < 1 then
    count = 1
  end
  local cursor = api.nvim_win_get_cursor(0)
  local line, col = cursor[1] - 1, cursor[2]
  local target
  local wrapped = false
  for _ = 1, count do
    target = nil
    if forward then
      for _, match in ipairs(matches) do
        if before(line, col, match.line, match.col) then
          target = match
          break
        end
      end
      if not target then
        target, wrapped = matches[1], true
      end
    else
      for index = #matches, 1, -1 do
        if before(matches[index].line, matches[index].col, line, col) then
          target = matches[index]
          break
        end
      end
      if not target then
        target, wrapped = matches[#matches], true
      end
    end
    line, col = target.line, target.col
  end
  -- Into the jumplist, as a search would, so that <C-o> goes back.
  vim.cmd("normal! m'")
  api.nvim_win_set_cursor(0, { target.line + 1, target.col })
  if wrapped then
    notify(forward and "search hit BOTTOM, continuing at TOP" or "search hit TOP, continuing at BOTTOM", vim.log.levels.WARN)
  end
  return target
end

--- Goes to the next match in the current buffer, wrapping at the end with a message.
--- opts.rules: rule names to stop at (default: every rule); opts.count: how many matches on
--- (default: the count typed before the mapping). Returns the match landed on, or nil.
function M.jump_next(opts)
  return jump(true, opts)
end

--- Goes to the previous match in the current buffer, wrapping at the start with a message;
--- options as jump_next.
function M.jump_prev(opts)
  return jump(false, opts)
end

-- A line's text for quickfix columns and texts: a loaded buffer's, else the file's (read once).
local function line_reader()
  local files = {}
  return function(uri, line)
    local bufnr = buffer_for_uri(uri)
    if bufnr then
      return api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1] or "", bufnr
    end
    local lines = files[uri]
    if lines == nil then
      local ok, read = pcall(vim.fn.readfile, vim.uri_to_fname(uri))
      lines = ok and read or {}
      files[uri] = lines
    end
    return lines[line + 1] or "", nil
  end
end

-- A byte column in a line of text, from a column in `encoding`.
local function text_byte_column(text, column, encoding)
  if encoding == "utf-8" then
    return math.min(column, #text)
  end
  local ok, byte
  if new_byteindex then
    ok, byte = pcall(vim.str_byteindex, text, encoding, column, false)
  else
    ok, byte = pcall(vim.str_byteindex, text, column, encoding == "utf-16")
  end
  if ok and type(byte) == "number" then
    return math.min(byte, #text)
  end
  return #text
end

-- The current buffer's client, or any client of this server.
local function any_client()
  return M.clients(api.nvim_get_current_buf())[1] or M.clients(nil)[1]
end

--- Asks for the workspace's listed matches (`rules`: only those rules, one request each with
--- the server's `rule:` filter) and calls `callback` with quickfix items in file order, or
--- with nil and a reason.
function M.workspace_items(rules, callback)
  local client = any_client()
  if not client then
    callback(nil, "no server running")
    return
  end
  local queries = {}
  if type(rules) == "table" and #rules > 0 then
    for _, rule in ipairs(rules) do
      queries[#queries + 1] = tostring(rule) .. ":"
    end
  else
    queries[1] = ""
  end
  local encoding = client.offset_encoding or "utf-16"
  local read_line = line_reader()
  local items = {}
  local function ask(index)
    if index > #queries then
      table.sort(items, function(a, b)
        if a.filename ~= b.filename then
          return a.filename < b.filename
        end
        if a.lnum ~= b.lnum then
          return a.lnum < b.lnum
        end
        return a.col < b.col
      end)
      callback(items)
      return
    end
    -- One request at a time: a newer workspace/symbol supersedes a running one.
    client_request(client, "workspace/symbol", { query = queries[index] }, function(err, result)
      if err or type(result) ~= "table" then
        callback(nil, "workspace/symbol failed: " .. tostring(err and err.message or "no result"))
        return
      end
      for _, symbol in ipairs(result) do
        local location = type(symbol) == "table" and symbol.location
        local range = type(location) == "table" and location.range
        if type(range) == "table" and type(location.uri) == "string" and is_position(range.start) and is_position(range["end"]) then
          local start_text = read_line(location.uri, range.start.line)
          local end_text = read_line(location.uri, range["end"].line)
          items[#items + 1] = {
            filename = vim.uri_to_fname(location.uri),
            lnum = range.start.line + 1,
            col = text_byte_column(start_text, range.start.character, encoding) + 1,
            end_lnum = range["end"].line + 1,
            end_col = text_byte_column(end_text, range["end"].character, encoding) + 1,
            text = tostring(symbol.name),
            type = "",
          }
        end
      end
      ask(index + 1)
    end)
  end
  ask(1)
end

local function list_title(what, rules)
  if type(rules) == "table" and #rules > 0 then
    return "highlight-ls " .. what .. ": " .. table.concat(rules, ", ")
  end
  return "highlight-ls " .. what
end

--- Fills the quickfix list with the workspace's listed matches (`rules`: only those) and opens
--- it; `opts.open = false` leaves it closed. Asynchronous: the list fills when the server answers.
function M.quickfix(rules, opts)
  opts = opts or {}
  M.workspace_items(rules, function(items, problem)
    if not items then
      notify(problem, vim.log.levels.WARN)
      return
    end
    vim.fn.setqflist({}, " ", { title = list_title("workspace", rules), items = items })
    if opts.open ~= false then
      vim.cmd("botright copen")
    end
  end)
end

--- Fills the current window's location list with the buffer's matches (`rules`: only those),
--- at once; `opts.open = false` leaves it closed. Returns the number of items, or nil.
function M.loclist(rules, opts)
  opts = opts or {}
  local bufnr = api.nvim_get_current_buf()
  local matches, problem = M.buffer_matches(bufnr, rules)
  if not matches then
    notify(problem, vim.log.levels.WARN)
    return nil
  end
  local items = {}
  for _, match in ipairs(matches) do
    local text = api.nvim_buf_get_lines(bufnr, match.line, match.line + 1, false)[1] or ""
    items[#items + 1] = {
      bufnr = bufnr,
      lnum = match.line + 1,
      col = match.col + 1,
      end_lnum = match.end_line + 1,
      end_col = match.end_col + 1,
      text = vim.trim(text:sub(match.col + 1)),
    }
  end
  vim.fn.setloclist(0, {}, " ", { title = list_title("buffer", rules), items = items })
  if opts.open ~= false then
    vim.cmd("lopen")
  end
  return #items
end

-- Counts for status lines --------------------------------------------------------------------
--
-- A status line is drawn on every redraw, so `counts()` and `counts_text()` only read a cache.
-- The cache is refreshed by asking the server (`highlight/counts`, the workspace/symbol search
-- counted per rule, run beside its loop) when it attaches, after a write and after edits,
-- debounced by one timer; each answer replaces the cache and redraws the status lines. The
-- server re-reads only files that changed and counts open buffers with their unsaved text.

M.counts_request = "highlight/counts"

-- The latest answer: the rules in the server's order (most frequent first) and by name.
local counts_cache = { list = {}, by_rule = {} }
-- The buffer whose change asked for the pending refresh, and the timer that debounces it.
local counts_buffer = nil
local counts_timer = nil
-- Buffers whose edits refresh the counts (an nvim_buf_attach each).
local counts_watched = {}

local function offers_counts(client)
  local capabilities = client.server_capabilities or client.resolved_capabilities or {}
  local experimental = capabilities.experimental
  return type(experimental) == "table" and experimental.countsProvider == true
end

--- The workspace's latest counts per listed rule, e.g. `{ todo = 3, fixme = 1 }`, from the
--- cache: never waits for the server, so a status line may call it on every redraw. Empty
--- until the server first answers.
function M.counts()
  return vim.deepcopy(counts_cache.by_rule)
end

--- The latest counts as status line text, e.g. `3 TODO | 1 FIXME`, most frequent first; "" when
--- there are none. `opts.separator` overrides the `counts.separator` option, and `opts.format`
--- (a function of rule and count) replaces `3 TODO` for each rule.
function M.counts_text(opts)
  opts = opts or {}
  local separator = opts.separator or M.options.counts.separator
  local parts = {}
  for _, entry in ipairs(counts_cache.list) do
    if opts.format then
      parts[#parts + 1] = opts.format(entry.rule, entry.count)
    else
      parts[#parts + 1] = string.format("%d %s", entry.count, entry.rule:upper())
    end
  end
  return table.concat(parts, separator)
end

-- Takes in the server's answer and redraws the status lines when the counts changed.
local function apply_counts(result)
  if type(result) ~= "table" or type(result.counts) ~= "table" then
    return
  end
  local list, by_rule = {}, {}
  for _, entry in ipairs(result.counts) do
    if type(entry) == "table" and type(entry.rule) == "string" and type(entry.count) == "number" then
      list[#list + 1] = { rule = entry.rule, count = entry.count }
      by_rule[entry.rule] = entry.count
    end
  end
  local changed = not vim.deep_equal(list, counts_cache.list)
  counts_cache = { list = list, by_rule = by_rule }
  if changed then
    vim.cmd("redrawstatus")
    api.nvim_exec_autocmds("User", { pattern = "HighlightLsCounts", modeline = false })
  end
end

--- Asks the server for the workspace's counts now; `counts()` has them once it answers. Edits of
--- `bufnr` (default: the current buffer) not yet sent are sent first.
function M.refresh_counts(bufnr)
  bufnr = resolve_buffer(bufnr)
  local client = M.clients(bufnr)[1] or M.clients(nil)[1]
  if not client or not offers_counts(client) then
    return
  end
  -- A newer request supersedes a running one on the server, so an older answer never lands last.
  pcall(client_request, client, M.counts_request, {}, function(err, result)
    if not err then
      apply_counts(result)
    end
  end, api.nvim_buf_is_valid(bufnr) and bufnr or nil)
end

--- Refreshes the counts `debounce_ms` after the last call, so a burst of edits asks once.
function M.schedule_counts(bufnr)
  local options = M.options.counts
  if not options.enabled then
    return
  end
  counts_buffer = bufnr
  if not counts_timer then
    counts_timer = uv.new_timer()
  end
  counts_timer:stop()
  counts_timer:start(options.debounce_ms, 0, vim.schedule_wrap(function()
    M.refresh_counts(counts_buffer)
  end))
end

-- Refreshes the counts now and follows the buffer's edits and writes.
local function watch_counts(client, bufnr)
  if not M.options.counts.enabled or not offers_counts(client) then
    return
  end
  M.refresh_counts(bufnr)
  if counts_watched[bufnr] then
    return
  end
  counts_watched[bufnr] = true
  -- on_lines sees every change, typed or made through the API; the timer's callback runs
  -- outside it, where requests may be sent.
  api.nvim_buf_attach(bufnr, false, {
    on_lines = function()
      if not counts_watched[bufnr] then
        return true
      end
      M.schedule_counts(bufnr)
    end,
    on_detach = function()
      counts_watched[bufnr] = nil
    end,
  })
  local group = api.nvim_create_augroup("highlight-ls.counts", { clear = false })
  api.nvim_create_autocmd("BufWritePost", {
    group = group,
    buffer = bufnr,
    callback = function(args)
      M.schedule_counts(args.buf)
    end,
  })
end

-- The server stopped: its counts are gone.
local function forget_counts()
  counts_cache = { list = {}, by_rule = {} }
  vim.cmd("redrawstatus")
end

-- The command and the missing binary ---------------------------------------------------------

local reported_commands = {}

--- Whether a client command can start; tells the user once, with the fix, when it cannot.
function M.check_command(cmd)
  if type(cmd) ~= "table" then
    return true -- a function: the caller knows what it starts
  end
  local program = cmd[1]
  if type(program) == "string" and vim.fn.executable(program) == 1 then
    return true
  end
  local key = tostring(program)
  if not reported_commands[key] then
    reported_commands[key] = true
    local fix
    if has("nvim-0.11") then
      fix = 'vim.lsp.config("' .. M.options.name .. '", { cmd = { "/path/to/highlight-ls" } })'
    else
      fix = 'require("highlight-ls").setup({ cmd = { "/path/to/highlight-ls" } })'
    end
    vim.notify(
      string.format(
        "highlight-ls: the server %q is not an executable, so nothing is highlighted. "
          .. "Install highlight-ls on PATH or give its path: %s. See :help highlight-ls-install",
        key,
        fix
      ),
      vim.log.levels.ERROR
    )
  end
  return false
end

-- Attaching ----------------------------------------------------------------------------------

-- Whether a buffer is one we highlight: a normal buffer backed by a name.
local function wants(bufnr)
  return api.nvim_buf_is_valid(bufnr)
    and api.nvim_buf_is_loaded(bufnr)
    and vim.bo[bufnr].buftype == ""
    and api.nvim_buf_get_name(bufnr) ~= ""
end

local function path_exists(path)
  return uv.fs_stat(path) ~= nil
end

local function is_inside(path, directory)
  if directory == "/" then
    return true
  end
  return path == directory or path:sub(1, #directory + 1) == directory .. "/"
end

--- The workspace root of a buffer: the nearest directory with a root marker; without one, the
--- current directory if the file is inside it, else the file's directory. Every way of
--- starting the server uses this, so a folder gets one client whatever the buffer's filetype.
function M.root_dir(bufnr, markers)
  bufnr = resolve_buffer(bufnr)
  local name = api.nvim_buf_get_name(bufnr)
  local directory = vim.fn.fnamemodify(name, ":p:h")
  for _, marker in ipairs(markers or M.options.root_markers or {}) do
    local current = directory
    while current and current ~= "" do
      if path_exists(current .. "/" .. marker) then
        return current
      end
      local parent = vim.fn.fnamemodify(current, ":h")
      if parent == current then
        break
      end
      current = parent
    end
  end
  local cwd = vim.fn.getcwd()
  if name == "" or is_inside(directory, cwd) then
    return cwd
  end
  return directory
end

local function semantic_tokens_wanted()
  if M.options.semantic_tokens ~= nil then
    return M.options.semantic_tokens
  end
  return not M.options.decorations
end

--- The client configuration shared by every way of starting the server; on 0.11 it is also
--- what lsp/highlight-ls.lua gives vim.lsp.config (with `root_dir` as a function).
function M.client_config()
  local options = M.options
  local init_options = vim.deepcopy(options.init_options or {})
  if options.decorations then
    -- Byte columns, as extmarks want, and deltas after edits. Keys the user gives in
    -- `init_options.decorations` win, so `{ decorations = { delta = false } }` brings back a
    -- whole payload after every edit.
    local decorations = { positionEncoding = "utf-8", delta = true }
    if type(init_options.decorations) == "table" then
      decorations = vim.tbl_extend("force", decorations, init_options.decorations)
    end
    init_options.decorations = decorations
  end
  local capabilities = options.capabilities or vim.lsp.protocol.make_client_capabilities()
  if not semantic_tokens_wanted() then
    capabilities = vim.deepcopy(capabilities)
    if capabilities.textDocument then
      capabilities.textDocument.semanticTokens = nil
    end
  end
  local handlers = {}
  handlers[M.decorations_method] = function(...)
    return M.on_publish_decorations(...)
  end
  local user_on_attach = options.on_attach
  return {
    name = options.name,
    cmd = options.cmd,
    init_options = init_options,
    settings = options.settings and { highlight = options.settings } or nil,
    capabilities = capabilities,
    handlers = handlers,
    on_init = function(client)
      if not semantic_tokens_wanted() and client.server_capabilities then
        client.server_capabilities.semanticTokensProvider = nil
      end
    end,
    on_attach = function(client, bufnr)
      -- A buffer switched off before the server attached gets no semantic tokens either.
      if not M.is_enabled(bufnr) and supports_semantic_tokens(client) then
        pcall(vim.lsp.semantic_tokens.stop, bufnr, client.id)
      end
      watch_counts(client, bufnr)
      if user_on_attach then
        user_on_attach(client, bufnr)
      end
    end,
    on_exit = function(code, signal, client_id)
      M.exits[#M.exits + 1] = { client_id = client_id, code = code, signal = signal }
      vim.schedule(function()
        for _, bufnr in ipairs(loaded_buffers()) do
          M.clear(bufnr)
        end
        forget_counts()
      end)
    end,
  }
end

--- The configuration `lsp/highlight-ls.lua` returns for vim.lsp.config (0.11+): every
--- filetype, and a root per M.root_dir, so one client serves a root.
function M.lsp_config()
  local config = M.client_config()
  config.name = nil -- vim.lsp.config names it after the file
  config.root_markers = vim.deepcopy(M.options.root_markers)
  config.root_dir = function(bufnr, on_dir)
    local resolved = vim.lsp.config[M.options.name]
    on_dir(M.root_dir(bufnr, resolved and resolved.root_markers))
  end
  return config
end

-- Whether vim.lsp.enable has been called for this server (0.11+).
local function lsp_enabled()
  if not (vim.lsp.config and vim.lsp.enable) then
    return false
  end
  if vim.lsp.is_enabled then
    return vim.lsp.is_enabled(M.options.name)
  end
  return type(vim.lsp._enabled_configs) == "table" and vim.lsp._enabled_configs[M.options.name] ~= nil
end

-- 0.11+: a buffer just read. vim.lsp.enable attaches on FileType and says nothing when the
-- binary is missing; this tells the user, and attaches buffers that have no filetype.
local function after_buffer_read(bufnr)
  if not wants(bufnr) or not lsp_enabled() then
    return
  end
  local config = vim.lsp.config[M.options.name]
  if type(config) ~= "table" or not M.check_command(config.cmd) then
    return
  end
  if vim.bo[bufnr].filetype ~= "" or #M.clients(bufnr) > 0 then
    return
  end
  if config.filetypes then
    return -- the user limited the server to some filetypes
  end
  config = vim.deepcopy(config)
  local function start(root)
    config.root_dir = root
    vim.lsp.start(config, { bufnr = bufnr, reuse_client = config.reuse_client })
  end
  if type(config.root_dir) == "function" then
    config.root_dir(bufnr, function(root)
      vim.schedule(function()
        if wants(bufnr) and #M.clients(bufnr) == 0 then
          start(root)
        end
      end)
    end)
  else
    start(config.root_dir or M.root_dir(bufnr, config.root_markers))
  end
end

--- Called by plugin/highlight-ls.lua on BufReadPost and BufNewFile (0.11+), after filetype
--- detection has run.
function M.on_buffer_read(bufnr)
  vim.schedule(function()
    after_buffer_read(bufnr)
  end)
end

-- Neovim 0.7: one client per root, started with start_client and attached buffer by buffer.
local legacy_clients = {}
local function attach_legacy(bufnr)
  local root = M.root_dir(bufnr)
  local client_id = legacy_clients[root]
  if client_id and not vim.lsp.get_client_by_id(client_id) then
    client_id = nil
  end
  if not client_id then
    local config = M.client_config()
    config.root_dir = root
    client_id = vim.lsp.start_client(config)
    if not client_id then
      return
    end
    legacy_clients[root] = client_id
  end
  vim.lsp.buf_attach_client(bufnr, client_id)
end

-- Neovim 0.8-0.10.
local function attach_with_start(bufnr)
  local config = M.client_config()
  config.root_dir = M.root_dir(bufnr)
  vim.lsp.start(config, { bufnr = bufnr })
end

--- Attaches the server to a buffer if it is a normal file buffer (0 for the current one).
function M.attach(bufnr)
  bufnr = resolve_buffer(bufnr)
  if not wants(bufnr) or #M.clients(bufnr) > 0 then
    return
  end
  if not M.check_command(M.options.cmd) then
    return
  end
  if vim.lsp.start then
    attach_with_start(bufnr)
  else
    attach_legacy(bufnr)
  end
end

-- The `counts` option merged over its defaults, once, so that its readers need no fallbacks:
-- a bare `true` or `false` stands for `{ enabled = ... }`, and a value of another type for
-- the defaults.
local function counts_options_over_defaults(counts)
  if type(counts) == "boolean" then
    counts = { enabled = counts }
  elseif type(counts) ~= "table" then
    counts = {}
  end
  return vim.tbl_extend("force", defaults.counts, counts)
end

local function use_lsp_enable()
  return has("nvim-0.11") and vim.lsp.config ~= nil and vim.lsp.enable ~= nil
end

--- Creates the autocommands of the 0.11 path (also created by plugin/highlight-ls.lua).
function M.watch_buffers()
  local group = api.nvim_create_augroup("highlight-ls.files", { clear = true })
  api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
    group = group,
    callback = function(args)
      M.on_buffer_read(args.buf)
    end,
  })
end

--- Configures the plugin and attaches the server to every normal buffer, now and later.
---
--- Options: cmd, name, decorations, semantic_tokens, follow_theme, root_markers, settings,
--- init_options, priority, on_attach, capabilities, counts (see the table `defaults` above and
--- `:help highlight-ls-setup`). On 0.11 this is vim.lsp.config + vim.lsp.enable.
function M.setup(options)
  M.options = vim.tbl_deep_extend("force", vim.deepcopy(defaults), options or {})
  M.options.counts = counts_options_over_defaults(options and options.counts)
  if options and options.root_markers then
    M.options.root_markers = options.root_markers
  end
  if options and options.cmd then
    M.options.cmd = options.cmd
  end

  local group = api.nvim_create_augroup("highlight-ls", { clear = true })
  M.define_groups()

  if use_lsp_enable() then
    vim.lsp.config(M.options.name, M.lsp_config())
    vim.lsp.enable(M.options.name)
    M.watch_buffers()
    -- vim.lsp.enable handled the open buffers with a filetype; these are the others.
    for _, bufnr in ipairs(api.nvim_list_bufs()) do
      if wants(bufnr) and vim.bo[bufnr].filetype == "" then
        M.on_buffer_read(bufnr)
      end
    end
    return
  end
  api.nvim_create_autocmd({ "BufReadPost", "BufNewFile", "BufFilePost" }, {
    group = group,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    if wants(bufnr) then
      M.attach(bufnr)
    end
  end
end

--- Defines the highlight groups and follows colour scheme changes without setup() (the
--- vim.lsp.enable path); called by lsp/highlight-ls.lua when the server is first configured.
function M.define_groups()
  local group = api.nvim_create_augroup("highlight-ls.colors", { clear = true })
  api.nvim_create_autocmd("ColorScheme", { group = group, callback = redefine_groups })
  redefine_groups()
end

return M

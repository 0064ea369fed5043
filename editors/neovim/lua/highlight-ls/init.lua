-- highlight-ls for Neovim: attaches the server to every normal buffer and draws the exact
-- style of every highlight with extmarks.
--
-- The server sends `highlight/publishDecorations` with a table of styles and a flat list of
-- single-line ranges (line, startCharacter, endCharacter, styleIndex). We ask for byte columns
-- (`positionEncoding = "utf-8"`), which is what extmarks use, so no conversion is needed in
-- the common case. Each distinct style gets a highlight group of its own (`HighlightLs<Rule>`),
-- and every range becomes one extmark in the `highlight-ls` namespace. A new notification for
-- a buffer replaces all of that buffer's extmarks; an empty `ranges` clears them.
--
-- Works on Neovim 0.7 and later:
--   0.11+      vim.lsp.config / vim.lsp.enable (plus buffers that have no filetype)
--   0.8-0.10   vim.lsp.start from an autocommand
--   0.7        vim.lsp.start_client + vim.lsp.buf_attach_client
-- Semantic tokens (0.9+) arrive as `@lsp.type.<rule>` groups, linked to defaults below.

local M = {}

local api = vim.api

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
  -- Draw exact styles with extmarks (the only highlighting before Neovim 0.9).
  decorations = true,
  -- Semantic tokens (0.9+). `nil` means: on only when decorations are off, so the same
  -- text is not highlighted twice.
  semantic_tokens = nil,
  -- Files that mark the workspace root, searched upwards from the buffer's file.
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
}

M.options = vim.deepcopy(defaults)

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

-- The colour translucent colours are blended over: Normal's background when it has one,
-- otherwise black or white after 'background'.
local function backdrop()
  local ok, normal = pcall(api.nvim_get_hl_by_name, "Normal", true)
  if ok and type(normal) == "table" and type(normal.background) == "number" then
    local value = normal.background
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

-- The groups defined so far: key (rule and attributes) -> group name, and name -> style.
local group_by_key = {}
local style_by_group = {}
local groups_by_rule = {}

local function style_key(style)
  local keys = {}
  for key, value in pairs(style) do
    keys[#keys + 1] = key .. "=" .. tostring(value)
  end
  table.sort(keys)
  return table.concat(keys, ";")
end

local function define_group(name, style)
  api.nvim_set_hl(0, name, M.highlight_attributes(style))
end

--- The highlight group drawing a decoration style, defined on first use.
---
--- The first style seen for a rule is `HighlightLs<Rule>`; another style for the same rule
--- (a different configuration in another workspace folder) gets `HighlightLs<Rule>2`, and so on.
function M.group_for_style(style)
  local key = style_key(style)
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

-- The built-in rules' looks, for semantic tokens (whose colours the client chooses).
local builtin_styles = {
  fixme = { rule = "fixme", color = "#ffffffff", backgroundColor = "#d32f2fff", bold = true },
  todo = { rule = "todo", color = "#1a1a1aff", backgroundColor = "#f9a825ff", bold = true },
  hack = { rule = "hack", color = "#ffffffff", backgroundColor = "#ef6c00ff", bold = true },
  note = { rule = "note", color = "#ffffffff", backgroundColor = "#1976d2ff", bold = true },
  review = { rule = "review", color = "#ffffffff", backgroundColor = "#2e7d32ff", bold = true },
  deprecated = { rule = "deprecated", color = "#9e9e9eff", strikethrough = true },
  highlight = { rule = "highlight", backgroundColor = "#8080804d" },
}

-- Defines `HighlightLsToken<Rule>` for every built-in rule and links `@lsp.type.<rule>` to
-- it, without overriding a colour scheme that already defines those groups.
local function define_semantic_token_groups()
  if vim.fn.has("nvim-0.9") ~= 1 then
    return
  end
  for rule, style in pairs(builtin_styles) do
    local attributes = M.highlight_attributes(style)
    attributes.default = true
    local group = "HighlightLsToken" .. camel(rule)
    api.nvim_set_hl(0, group, attributes)
    api.nvim_set_hl(0, "@lsp.type." .. rule, { link = group, default = true })
  end
end

-- A colour scheme change clears every group; define ours again.
local function redefine_groups()
  for name, style in pairs(style_by_group) do
    define_group(name, style)
  end
  define_semantic_token_groups()
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

-- The byte column of a column in another encoding, clamped to the line.
local function byte_column(bufnr, line, column, encoding, line_cache)
  if encoding == "utf-8" then
    return column
  end
  local text = line_cache[line]
  if text == nil then
    text = api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1] or ""
    line_cache[line] = text
  end
  local ok, byte = pcall(vim.str_byteindex, text, column, encoding == "utf-16")
  if ok and type(byte) == "number" then
    return byte
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

--- Draws a `highlight/publishDecorations` payload: replaces the buffer's extmarks.
---
--- Returns the buffer drawn, or nil with a reason when the payload was ignored (unknown
--- document, stale version, malformed payload).
function M.apply_decorations(result)
  if type(result) ~= "table" or type(result.textDocument) ~= "table" then
    return nil, "malformed payload"
  end
  local bufnr = buffer_for_uri(result.textDocument.uri)
  if not bufnr then
    return nil, "no buffer for " .. tostring(result.textDocument.uri)
  end
  local version = result.textDocument.version
  local current = buffer_version(bufnr)
  if type(version) == "number" and current and version < current then
    -- The buffer has changed since; the server sends the newer state after our didChange.
    return nil, "stale version " .. version .. " < " .. current
  end
  local styles = type(result.styles) == "table" and result.styles or {}
  local ranges = type(result.ranges) == "table" and result.ranges or {}
  local encoding = result.positionEncoding or "utf-16"
  local groups = {}
  for index, style in ipairs(styles) do
    if type(style) == "table" then
      groups[index - 1] = M.group_for_style(style)
    end
  end
  api.nvim_buf_clear_namespace(bufnr, M.namespace, 0, -1)
  local line_count = api.nvim_buf_line_count(bufnr)
  local line_cache = {}
  for offset = 1, #ranges - 3, 4 do
    local line, first, last, style_index = ranges[offset], ranges[offset + 1], ranges[offset + 2], ranges[offset + 3]
    if is_index(line) and is_index(first) and is_index(last) and groups[style_index] and line < line_count then
      local start_col = byte_column(bufnr, line, first, encoding, line_cache)
      local end_col = byte_column(bufnr, line, last, encoding, line_cache)
      if end_col > start_col then
        pcall(api.nvim_buf_set_extmark, bufnr, M.namespace, line, start_col, {
          end_row = line,
          end_col = end_col,
          hl_group = groups[style_index],
          priority = M.options.priority,
          strict = false,
        })
      end
    end
  end
  return bufnr
end

--- The handler of `highlight/publishDecorations` (signature of Neovim 0.5.1+ handlers).
function M.on_publish_decorations(err, result, _ctx, _config)
  if err then
    return
  end
  M.apply_decorations(result)
end

--- Removes every decoration from a buffer (0 for the current one).
function M.clear(bufnr)
  api.nvim_buf_clear_namespace(bufnr or 0, M.namespace, 0, -1)
end

-- Clients and attaching ----------------------------------------------------------------------

local function clients_of_buffer(bufnr)
  local found = {}
  local get = vim.lsp.get_clients or vim.lsp.buf_get_clients
  local list = vim.lsp.get_clients and get({ bufnr = bufnr }) or get(bufnr)
  for _, client in pairs(list or {}) do
    if client.name == M.options.name then
      found[#found + 1] = client
    end
  end
  return found
end

--- Asks the server for a buffer's decorations and draws them (0 for the current buffer).
function M.refresh(bufnr)
  if bufnr == nil or bufnr == 0 then
    bufnr = api.nvim_get_current_buf()
  end
  for _, client in ipairs(clients_of_buffer(bufnr)) do
    local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
    local function on_result(err, result)
      if not err and type(result) == "table" then
        M.apply_decorations(result)
      end
    end
    if vim.fn.has("nvim-0.11") == 1 then
      client:request(M.decorations_request, params, on_result, bufnr)
    else
      client.request(M.decorations_request, params, on_result, bufnr)
    end
  end
end

-- Whether a buffer is one we highlight: a normal buffer backed by a name.
local function wants(bufnr)
  return api.nvim_buf_is_valid(bufnr)
    and api.nvim_buf_is_loaded(bufnr)
    and vim.bo[bufnr].buftype == ""
    and api.nvim_buf_get_name(bufnr) ~= ""
end

local function path_exists(path)
  return (vim.loop or vim.uv).fs_stat(path) ~= nil
end

--- The workspace root of a buffer: the nearest directory with a root marker, else the cwd.
function M.root_dir(bufnr)
  local name = api.nvim_buf_get_name(bufnr)
  local directory = vim.fn.fnamemodify(name, ":p:h")
  for _, marker in ipairs(M.options.root_markers or {}) do
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
  return vim.fn.getcwd()
end

local function semantic_tokens_wanted()
  if M.options.semantic_tokens ~= nil then
    return M.options.semantic_tokens
  end
  return not M.options.decorations
end

-- The client configuration shared by every way of starting the server.
local function client_config()
  local options = M.options
  local init_options = vim.deepcopy(options.init_options or {})
  if options.decorations then
    init_options.decorations = { positionEncoding = "utf-8" }
  end
  local capabilities = options.capabilities or vim.lsp.protocol.make_client_capabilities()
  if not semantic_tokens_wanted() then
    capabilities = vim.deepcopy(capabilities)
    if capabilities.textDocument then
      capabilities.textDocument.semanticTokens = nil
    end
  end
  local handlers = {}
  handlers[M.decorations_method] = M.on_publish_decorations
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
    on_attach = options.on_attach,
    on_exit = function()
      vim.schedule(function()
        for _, bufnr in ipairs(api.nvim_list_bufs()) do
          if api.nvim_buf_is_loaded(bufnr) then
            M.clear(bufnr)
          end
        end
      end)
    end,
  }
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
    local config = client_config()
    config.root_dir = root
    client_id = vim.lsp.start_client(config)
    if not client_id then
      return
    end
    legacy_clients[root] = client_id
  end
  vim.lsp.buf_attach_client(bufnr, client_id)
end

-- Neovim 0.8-0.10 (and buffers without a filetype on 0.11+).
local function attach_with_start(bufnr)
  local config = client_config()
  config.root_dir = M.root_dir(bufnr)
  vim.lsp.start(config, { bufnr = bufnr })
end

--- Attaches the server to a buffer if it is a normal file buffer (0 for the current one).
function M.attach(bufnr)
  if bufnr == nil or bufnr == 0 then
    bufnr = api.nvim_get_current_buf()
  end
  if not wants(bufnr) or #clients_of_buffer(bufnr) > 0 then
    return
  end
  if vim.lsp.start then
    attach_with_start(bufnr)
  else
    attach_legacy(bufnr)
  end
end

local function use_lsp_enable()
  return vim.fn.has("nvim-0.11") == 1 and vim.lsp.config ~= nil and vim.lsp.enable ~= nil
end

--- Configures the plugin and attaches the server to every normal buffer, now and later.
---
--- Options: cmd, name, decorations, semantic_tokens, root_markers, settings, init_options,
--- priority, on_attach, capabilities (see the table `defaults` above and the README).
function M.setup(options)
  M.options = vim.tbl_deep_extend("force", vim.deepcopy(defaults), options or {})
  if options and options.root_markers then
    M.options.root_markers = options.root_markers
  end
  if options and options.cmd then
    M.options.cmd = options.cmd
  end

  local group = api.nvim_create_augroup("highlight-ls", { clear = true })
  api.nvim_create_autocmd("ColorScheme", { group = group, callback = redefine_groups })
  define_semantic_token_groups()

  if use_lsp_enable() then
    -- vim.lsp.enable attaches on FileType, with `filetypes = nil` meaning every filetype;
    -- buffers whose filetype stays empty never see FileType, so they are attached below.
    local config = client_config()
    config.root_markers = M.options.root_markers
    vim.lsp.config(M.options.name, config)
    vim.lsp.enable(M.options.name)
    api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
      group = group,
      callback = function(args)
        vim.schedule(function()
          if api.nvim_buf_is_valid(args.buf) and vim.bo[args.buf].filetype == "" then
            M.attach(args.buf)
          end
        end)
      end,
    })
  else
    api.nvim_create_autocmd({ "BufReadPost", "BufNewFile", "BufFilePost" }, {
      group = group,
      callback = function(args)
        M.attach(args.buf)
      end,
    })
  end
  -- Buffers that were open before setup (vim.lsp.enable itself handles those with a filetype).
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    if wants(bufnr) and not (use_lsp_enable() and vim.bo[bufnr].filetype ~= "") then
      M.attach(bufnr)
    end
  end
end

return M
